import * as Command from "@effect/cli/Command"
import { HashMap, HashSet } from "effect"

/** Command descriptions: what it does and one example, on one line for the listings. */
export const describe = (summary: string, example: string) => `${summary} Example: ${example}`

/** The short listing `sluice` and `sluice --help` print (the parser's lists every option of every command). */
export const rootHelp = (commands: ReadonlyArray<readonly [string, string]>, version: string) =>
  [
    `sluice ${version}: the sluice command line`,
    "",
    "Usage: sluice <command> [options]    (sluice <command> --help for its options and an example)",
    "",
    "Commands:",
    ...commands.map(([name, summary]) => `  ${name.padEnd(16)}${summary}`),
    "",
    "Every command takes --profile, --url, --organization, --cluster and --database (-d);",
    "SLUICE_PROFILE, SLUICE_URL and SLUICE_TOKEN override the profile file.",
    "Also: --completions bash|zsh|fish, --version. Exit codes: 0 ok, 1 error, 2 bad usage, 130 interrupted.",
    ""
  ].join("\n")

/**
 * A command's `--help` as @effect/cli renders it, tidied: the parser puts its type's
 * sentence ("A user-defined piece of text.", "An integer.", "A true or false value.")
 * above the description of every option and argument and "This setting is optional."
 * below every optional one, where the option's line and the usage's brackets say as much
 * (neither can be turned off); it names only the command's last word in the usage line; and
 * its banner says `sluice` on a line of its own above `sluice 0.1.0`. `words` are the
 * arguments before the first option (`["keys", "create"]`, perhaps with positionals after
 * them); `plain` drops the parser's ANSI styling (help read through a pipe or with NO_COLOR).
 */
export const tidyCommandHelp = (text: string, words: ReadonlyArray<string>, plain: boolean) =>
  (plain ? text.replace(/\x1b\[[0-9;]*m/g, "") : text)
    .replace(/^(?:\x1b\[[0-9;]*m)*sluice(?:\x1b\[[0-9;]*m)*\n\n(?=sluice \d)/, "")
    .replace(
      /^ {2}(?:A user-defined piece of text(?: that is confidential)?|An integer|A floating point number|A true or false value)\.\n\n/gm,
      ""
    )
    .replace(/^ {2}This setting is optional\.\n\n/gm, "")
    .replace(/^\$ ([\w-]+)(?= |$)/m, (usage, command: string) => {
      const at = words.indexOf(command)
      return at === -1 ? usage : `$ sluice ${words.slice(0, at + 1).join(" ")}`
    })

/**
 * `sluice <command> [<subcommand>] --help` for the command `args` name (the words before
 * its arguments and options), or `sluice --help` when they name none.
 */
export const helpCommand = (
  commands: ReadonlyArray<Command.Command<string, unknown, unknown, unknown>>,
  args: ReadonlyArray<string>
) => {
  const top = commands.find((c) => HashSet.has(Command.getNames(c), args[0] ?? ""))
  if (top === undefined) return "sluice --help"
  const sub = args[1] ?? ""
  const words = HashMap.has(Command.getSubcommands(top), sub) ? [args[0], sub] : [args[0]]
  return `sluice ${words.join(" ")} --help`
}
