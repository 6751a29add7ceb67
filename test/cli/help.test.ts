/**
 * Shell completions and help, as a user gets them: each shell's script, bash's loaded and
 * asked to complete below a subcommand and a hyphenated command; every command's
 * `--help` with an example of that command. No server is needed.
 */
import { execFileSync } from "node:child_process"
import { describe, expect, it } from "@effect/vitest"
import * as Commands from "../../src/cli/commands/index.js"
import { tidyCommandHelp } from "../../src/cli/Help.js"
import { unknownOption } from "../../src/cli/UnknownOption.js"
import { bin, cli } from "./cliProcess.js"

/** Every command path (`clusters metrics`), read from the bash script's own table. */
const commandPaths = (script: string) => {
  const paths = new Map<string, ReadonlyArray<string>>([["sluice", []]])
  for (const [, parent, word, name] of script.matchAll(
    /^\s+([\w-]+),([\w-]+)\)\n\s+cmd="([^"]+)"/gm
  )) {
    const above = paths.get(parent!)
    if (above !== undefined) paths.set(name!, [...above, word!])
  }
  return [...paths.values()].filter((path) => path.length > 0)
}

const bashComplete = (words: ReadonlyArray<string>) =>
  execFileSync(
    "bash",
    [
      "-c",
      `source <("${process.execPath}" "${bin}" --completions bash) || exit 1
COMP_WORDS=(${words.map((w) => `"${w}"`).join(" ")}); COMP_CWORD=${words.length - 1}
_sluice_bash_completions sluice "${words.at(-1)}" "${words.at(-2)}"
echo "\${COMPREPLY[*]}"`
    ],
    { encoding: "utf8" }
  ).trim()

describe("sluice --completions and --help", () => {
  it("prints a script for bash, zsh and fish; bash's loads and completes nested commands", async () => {
    for (const shell of ["bash", "zsh", "fish"]) {
      const run = await cli(["--completions", shell])
      expect(run.code, run.stderr).toBe(0)
      expect(run.stdout).toContain("sluice")
    }
    expect(bashComplete(["sluice", "que"])).toBe("query")
    expect(bashComplete(["sluice", "clusters", "metrics", "--s"])).toBe("--since")
    expect(bashComplete(["sluice", "saved-searches", ""]).split(" ")).toContain("run")
    expect(bashComplete(["sluice", "organizations", "re"])).toBe("rename")
    // zsh: every subcommand function the script calls is one it defines.
    const zsh = (await cli(["--completions", "zsh"])).stdout
    const defined = new Set([...zsh.matchAll(/^(_sluice\w*_commands)\(\)/gm)].map((m) => m[1]))
    const called = [...zsh.matchAll(/:(_sluice[\w-]*_commands)"/g)].map((m) => m[1])
    expect(called.length).toBeGreaterThan(5)
    expect(called.filter((name) => !defined.has(name))).toEqual([])
    const bad = await cli(["--completions", "tcsh"])
    expect(bad.code).toBe(2)
  })

  it("every command's --help shows its whole usage and an example, without ANSI codes in a pipe", async () => {
    const paths = commandPaths((await cli(["--completions", "bash"])).stdout)
    expect(paths.map((p) => p.join(" "))).toEqual(
      expect.arrayContaining([
        "shell",
        "organizations rename",
        "members role",
        "clusters metrics",
        "open"
      ])
    )
    const missing: Array<string> = []
    for (let i = 0; i < paths.length; i += 4)
      await Promise.all(
        paths.slice(i, i + 4).map(async (path) => {
          const help = await cli([...path, "--help"])
          if (help.code !== 0 || !help.stdout.includes(`Example: sluice ${path.join(" ")}`))
            missing.push(path.join(" "))
          if (help.stdout.includes("\x1b[")) missing.push(`${path.join(" ")} (ANSI codes)`)
          // The usage names the whole command, not only its last word.
          if (!help.stdout.includes(`\n$ sluice ${path.join(" ")}`))
            missing.push(`${path.join(" ")} (usage)`)
          // The parser's lines around every text option's own description say nothing.
          if (
            /A user-defined piece of text|An integer\.|true or false|optional\.\n/.test(help.stdout)
          )
            missing.push(`${path.join(" ")} (the parser's filler lines)`)
        })
      )
    expect(missing).toEqual([])
  }, 120_000)
})

describe("a refused command line", () => {
  it("says what was refused in the CLI's error shape, and which help to read", async () => {
    const usage = (help: string) => `hint: \`${help}\` shows its usage and an example.\n`
    const cases: ReadonlyArray<readonly [ReadonlyArray<string>, string]> = [
      [
        ["keys", "create", "reader", "--permission", "bogus"],
        'error: --permission "bogus" is not one of: admin, read_write, write_only, read_only.\n' +
          usage("sluice keys create --help")
      ],
      [
        ["tables", "describe"],
        "error: sluice tables describe needs <table>.\n" + usage("sluice tables describe --help")
      ],
      // The parser reads an unknown option of a command as an unknown command.
      [
        ["tables", "--bogus"],
        "error: sluice tables does not take --bogus.\n" + usage("sluice tables --help")
      ],
      [
        ["members", "role", "someone@example.com", "boss"],
        'error: "boss" is not one of: admin, member.\n' + usage("sluice members role --help")
      ],
      [["bogus"], "error: 'bogus' is not a command of sluice.\n" + usage("sluice --help")],
      // An address without its scheme: was "Cannot reach 127.0.0.1:8080: ERR_INVALID_URL."
      [
        ["tables", "--url", "127.0.0.1:8080"],
        'error: --url "127.0.0.1:8080" is not an http:// or https:// address.\n' +
          "hint: An address is written in full, for example http://127.0.0.1:8080.\n"
      ],
      // An option's value left out: the parser took the next option for it.
      [
        ["promql", "up", "--range", "--step", "1m"],
        "error: --range needs a value before --step.\n" + usage("sluice promql --help")
      ],
      [
        ["clusters", "create", "analytics"],
        "error: sluice clusters create needs --size.\n" + usage("sluice clusters create --help")
      ],
      // An option the command does not take, mistyped: was read as the key's name, and a
      // key "--permisson" was created.
      [
        ["keys", "create", "--permisson", "read_only", "ci"],
        "error: sluice keys create does not take --permisson.\n" +
          "hint: Did you mean --permission? `sluice keys create --help` shows its usage and an example.\n"
      ],
      [
        ["query", "--bogus"],
        "error: sluice query does not take --bogus.\n" + usage("sluice query --help")
      ],
      [
        ["login", "--token-stdin"],
        "error: sluice login does not take --token-stdin.\n" + usage("sluice login --help")
      ],
      [
        ["query", "SELECT 1", "SELECT 2"],
        "error: sluice query takes no further argument 'SELECT 2'.\n" + usage("sluice query --help")
      ]
    ]
    for (const [args, expected] of cases) {
      const run = await cli(args, { env: { SLUICE_URL: "http://127.0.0.1:9" } })
      expect(run.code, args.join(" ")).toBe(2)
      expect(run.stderr, args.join(" ")).toBe(expected)
      expect(run.stdout).toBe("")
    }
  })

  it("reads option-shaped words that are values, SQL or after -- as such", () => {
    const commands = Commands.commands as unknown as Parameters<typeof unknownOption>[0]
    const refused = (args: ReadonlyArray<string>) => unknownOption(commands, args)?.word
    expect(refused(["query", "--format=CSV", "SELECT 1"])).toBeUndefined()
    expect(refused(["query", "-q", "-d", "logs", "-- why\nSELECT 1"])).toBeUndefined()
    expect(refused(["query", "--query-id", "-x", "SELECT 1"])).toBeUndefined()
    expect(refused(["promql", "--", "-up"])).toBeUndefined()
    expect(refused(["clusters", "create", "--size", "2x8", "--wait", "-t"])).toBe("-t")
    expect(refused(["tables", "drop", "--yes", "--force", "t"])).toBe("--force")
    expect(refused(["nope", "--bogus"])).toBeUndefined()
    expect(
      refused(["saved-searches", "create", "s", "--spl", "x", "--earliest", "-24h"])
    ).toBeUndefined()
  })
})

describe("a command's help, tidied", () => {
  // The parser's rendering, as @effect/cli 0.x prints `sluice tables describe --help`.
  const parsers = [
    "\x1b[0;1m\x1b[0;37;1msluice\x1b[0;1m\x1b[0m",
    "",
    "sluice 0.1.0",
    "",
    "\x1b[0;1mUSAGE\x1b[0m",
    "",
    "$ describe [--url text] <table>",
    "",
    "\x1b[0;1mARGUMENTS\x1b[0m",
    "",
    "<table>",
    "",
    "  A user-defined piece of text.",
    "",
    "  The table to describe",
    "",
    "--token text",
    "",
    "  A user-defined piece of text that is confidential.",
    "",
    "  The key",
    "",
    "  This setting is optional.",
    "",
    "--json",
    "",
    "  A true or false value.",
    "",
    "  Print JSON",
    "",
    "(-n, --limit integer)",
    "",
    "  An integer.",
    "",
    "  At most this many",
    "",
    "--since text",
    "",
    "  How far back",
    "",
    "  This setting is optional. Defaults to: '1h'",
    ""
  ].join("\n")

  it("names the whole command, drops the filler lines, keeps styling unless plain", () => {
    const styled = tidyCommandHelp(parsers, ["tables", "describe", "events"], false)
    expect(styled).toContain("\n$ sluice tables describe [--url text] <table>\n")
    expect(styled).not.toContain("A user-defined piece of text")
    expect(styled).toContain(
      "<table>\n\n  The table to describe\n\n--token text\n\n  The key\n\n--json\n\n  Print JSON\n\n" +
        "(-n, --limit integer)\n\n  At most this many\n\n--since text\n"
    )
    // A default is worth its line.
    expect(styled).toContain("  This setting is optional. Defaults to: '1h'\n")
    expect(styled).toContain("\x1b[0;1mUSAGE\x1b[0m")
    expect(styled).toMatch(/^sluice 0\.1\.0\n\n\x1b\[0;1mUSAGE/)
    expect(tidyCommandHelp(parsers, ["tables", "describe"], true)).toMatch(
      /^sluice 0\.1\.0\n\nUSAGE\n\n\$ sluice tables describe /
    )
  })

  it("leaves a usage line alone when the words do not name its command", () => {
    expect(tidyCommandHelp(parsers, ["SELECT 1"], true)).toContain("\n$ describe [--url text]")
  })
})
