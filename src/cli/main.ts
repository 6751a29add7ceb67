/**
 * The `sluice` command line: every capability of the API from a terminal, as a second
 * client of the one contract. Exit codes: 0 success, 1 a server or usage error, 2 bad
 * usage, 130 interrupted; data on stdout, messages on stderr, never a stack trace.
 */
import * as CliConfig from "@effect/cli/CliConfig"
import * as Command from "@effect/cli/Command"
import * as HelpDoc from "@effect/cli/HelpDoc"
import * as ValidationError from "@effect/cli/ValidationError"
import * as NodeFileSystem from "@effect/platform-node/NodeFileSystem"
import * as NodePath from "@effect/platform-node/NodePath"
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import * as NodeTerminal from "@effect/platform-node/NodeTerminal"
import { Cause, Effect, Exit, Layer } from "effect"
import { badUsage, CliError } from "./CliError.js"
import { commands, summaries } from "./commands/index.js"
import * as Completions from "./Completions.js"
import { helpCommand, rootHelp, tidyCommandHelp } from "./Help.js"
import { errorText, stdinIsTTY, stdoutIsTTY } from "./Output.js"
import { hasCredential } from "./Profiles.js"
import type { UnknownOption } from "./UnknownOption.js"
import { unknownOption } from "./UnknownOption.js"
import { cliVersion } from "./Version.js"

const root = Command.make("sluice").pipe(
  Command.withDescription(
    "The sluice command line. `sluice <command> --help` shows a command's options and an example."
  ),
  Command.withSubcommands(commands)
)

// Each command with its own handler's types; read here only for their names.
const commandList = commands as ReadonlyArray<unknown> as ReadonlyArray<
  Command.Command<string, unknown, unknown, unknown>
>

const args = process.argv.slice(2)
// `sluice` alone at a terminal is the shell, once there is a credential to use.
const bare = args.length === 0 && stdinIsTTY() && stdoutIsTTY() && hasCredential()

const cli = Command.run(root, { name: "sluice", version: cliVersion })

// A command's help, tidied on its way out (Help.ts): without the parser's ANSI styling when
// read through a pipe or with NO_COLOR.
if (args.some((a) => a === "--help" || a === "-h")) {
  const firstOption = args.findIndex((a) => a.startsWith("-"))
  const words = args.slice(0, firstOption)
  const plain = !stdoutIsTTY() || process.env.NO_COLOR !== undefined
  const write = process.stdout.write.bind(process.stdout)
  process.stdout.write = (chunk: string | Uint8Array, ...rest: Array<never>) =>
    write(typeof chunk === "string" ? tidyCommandHelp(chunk, words, plain) : chunk, ...rest)
}

/** The parser's refusals go out as the CLI's own errors (`usageError`), not as it prints them. */
const quietParser = <A, E, R>(run: Effect.Effect<A, E, R>) =>
  Effect.consoleWith((console) => Effect.withConsole(run, { ...console, error: () => Effect.void }))

/**
 * A value outside its choices, named as `--since "soon" is not a duration.` is: the one
 * option whose value is not a choice, else the last word (an argument such as a role).
 */
const unlisted = (choices: ReadonlyArray<string>) => {
  const outside = (word: string | undefined) => word !== undefined && !choices.includes(word)
  const options = args.flatMap((arg, i) =>
    arg.startsWith("-") && outside(args[i + 1]) ? [`${arg} "${args[i + 1]}"`] : []
  )
  const last = [...args].reverse().find((arg) => !arg.startsWith("-") && outside(arg))
  const value =
    options.length === 1
      ? options[0]
      : options.length === 0 && last !== undefined
        ? `"${last}"`
        : "A value"
  return `${value} is not one of: ${choices.join(", ")}.`
}

/**
 * A refusal of the parser, with the command's help named: its own words name the option
 * only sometimes, and an unknown option of a command reads as an unknown command.
 */
const usageError = (error: ValidationError.ValidationError) => {
  const help = helpCommand(commandList, args)
  const text = HelpDoc.toAnsiText(error.error)
    .replace(/\x1b\[[0-9;]*m/g, "")
    .replace(/\s+/g, " ")
    .trim()
  const command = help.replace(/ --help$/, "")
  const extra = /^Received unknown argument: (.*)$/.exec(text)?.[1]
  const needed =
    /^Expected to find option: '(.+)'$/.exec(text)?.[1] ??
    /^Missing argument (<.+>)$/.exec(text)?.[1]
  const message = text.startsWith("Expected one of the following cases: ")
    ? unlisted(text.slice(37).split(", "))
    : extra !== undefined
      ? `${command} takes no further argument ${extra}.`
      : needed !== undefined
        ? `${command} needs ${needed}.`
        : !text.startsWith("Invalid subcommand for sluice")
          ? text
          : command === "sluice"
            ? `'${args[0] ?? ""}' is not a command of sluice.`
            : `${command} does not take ${args.filter((a) => a.startsWith("-")).join(" ") || "that"}.`
  return badUsage(message, `\`${help}\` shows its usage and an example.`)
}

/** An option the command does not take, refused before the parser reads it as an argument. */
const unknownOptionError = (unknown: UnknownOption) => {
  const help = helpCommand(commandList, args)
  if (unknown.followedBy !== undefined)
    return badUsage(
      `${unknown.word} needs a value before ${unknown.followedBy}.`,
      `\`${help}\` shows its usage and an example.`
    )
  return badUsage(
    `${help.replace(/ --help$/, "")} does not take ${unknown.word}.`,
    `${unknown.nearest === undefined ? "" : `Did you mean ${unknown.nearest}? `}\`${help}\` shows its usage and an example.`
  )
}
const unknown = unknownOption(commandList, args)

const report = (error: CliError) =>
  Effect.sync(() => {
    process.stderr.write(errorText(error))
    process.exitCode = error.exitCode
  })

const completions = args[0] === "--completions" ? args[1] : undefined

const program = (
  completions !== undefined && args.length === 2
    ? Completions.isShell(completions)
      ? Effect.flatMap(Completions.script(root, completions), (text) =>
          Effect.sync(() => process.stdout.write(`${text}\n`))
        )
      : Effect.fail(badUsage(`No completions for ${completions}.`, "Use bash, zsh or fish."))
    : unknown !== undefined
      ? Effect.fail(unknownOptionError(unknown))
      : quietParser(cli(bare ? [...process.argv, "shell"] : process.argv))
).pipe(
  Effect.catchAll((error) =>
    error instanceof CliError
      ? report(error)
      : ValidationError.isValidationError(error)
        ? report(usageError(error))
        : report(new CliError({ message: String(error), hint: "", exitCode: 1 }))
  ),
  Effect.catchAllDefect((defect) =>
    report(
      new CliError({
        message: `unexpected: ${defect instanceof Error ? defect.message : String(defect)}`,
        hint: "This is a bug in the CLI; please report it with the command you ran.",
        exitCode: 1
      })
    )
  ),
  // What the parser needs, without NodeContext's process and worker services: less to load.
  Effect.provide(Layer.mergeAll(NodeFileSystem.layer, NodePath.layer, NodeTerminal.layer)),
  // Help without the parser's own options on every page (the root help names them once).
  Effect.provide(CliConfig.layer({ showBuiltIns: false }))
)

if (
  (args.length === 0 && !bare) ||
  (args.length === 1 && (args[0] === "--help" || args[0] === "-h" || args[0] === "help"))
) {
  process.stdout.write(rootHelp(summaries, cliVersion))
} else
  NodeRuntime.runMain(program, {
    disableErrorReporting: true,
    disablePrettyLogger: true,
    teardown: (exit, onExit) =>
      onExit(
        Exit.isFailure(exit) && Cause.isInterruptedOnly(exit.cause)
          ? 130
          : ((process.exitCode as number | undefined) ?? (Exit.isFailure(exit) ? 1 : 0))
      )
  })
