/**
 * `shell` (and `sluice` alone at a terminal): SQL typed over as many lines as it takes,
 * run when a line ends the statement with `;`. History survives across runs, Tab completes
 * keywords and table names, Ctrl-C cancels the running statement on the server (or clears
 * what is typed), Ctrl-D or `exit` leaves. Piped in, the statements run one after another.
 */
import * as Command from "@effect/cli/Command"
import { Cause, Effect, Exit, Fiber, Queue } from "effect"
import * as readline from "node:readline"
import { withClient } from "../Api.js"
import { badUsage, CliError } from "../CliError.js"
import { dim, errorLine, errorText, stdinIsTTY, stdoutIsTTY } from "../Output.js"
import * as QueryStream from "../QueryStream.js"
import type { Session } from "../Session.js"
import { dataScope, scopeOptions, signedIn } from "../Session.js"
import * as ShellHistory from "../ShellHistory.js"
import { completionsOf, splitStatements } from "../SqlText.js"
import { readAll } from "../Stdin.js"

const PROMPT = "sluice> "
const MORE = "     -> "
const TABLES_TTL_MS = 30_000

const HELP = [
  "End a statement with ; to run it (it may span lines). Tab completes keywords and tables.",
  "USE db; switches the database. Ctrl-C cancels a running statement or clears the input;",
  "Ctrl-D or exit leaves. History is kept in " + ShellHistory.historyPath() + "."
].join("\n")

type Input =
  | { readonly _tag: "line"; readonly text: string }
  | { readonly _tag: "interrupt" }
  | { readonly _tag: "close" }

const USE = /^use\s+([`"]?)([A-Za-z_][\w-]*)\1$/i

const outputOf = (): QueryStream.Output => (stdoutIsTTY() ? { _tag: "table" } : { _tag: "tsv" })

/** One statement: `USE db` changes the session, anything else runs on the server. */
const runStatement = (session: Session, statement: string) => {
  const use = USE.exec(statement)
  if (use !== null)
    return Effect.as(errorLine(dim(`Database ${use[2]}.`)), { ...session, database: use[2] })
  return QueryStream.runCancellable(session, statement, outputOf()).pipe(
    Effect.flatMap((summary) => errorLine(QueryStream.footer(summary))),
    Effect.as(session)
  )
}

/** Statements from a pipe, stopping at the first that fails (its failure is the exit's). */
const piped = (start: Session) =>
  Effect.gen(function* () {
    const { statements, rest } = splitStatements(yield* readAll)
    let session = start
    for (const statement of rest.trim() === "" ? statements : [...statements, rest.trim()])
      session = yield* runStatement(session, statement)
  })

const tableNames = (session: Session) =>
  withClient(session, (client) => client.tables.list({ urlParams: dataScope(session) })).pipe(
    Effect.map((answer) => answer.tables.map((t) => t.name)),
    Effect.orElseSucceed((): Array<string> => [])
  )

const interactive = (start: Session) =>
  Effect.gen(function* () {
    const inputs = yield* Queue.unbounded<Input>()
    const history = ShellHistory.load()
    let session = start
    let running: Fiber.RuntimeFiber<Session, CliError> | undefined
    let tables: { readonly names: Array<string>; readonly at: number } | undefined
    const completer = (
      line: string,
      callback: (e: null, result: [Array<string>, string]) => void
    ) => {
      const known = tables
      if (known !== undefined && Date.now() - known.at < TABLES_TTL_MS)
        return callback(null, completionsOf(line, known.names))
      void Effect.runPromise(tableNames(session)).then((names) => {
        tables = { names, at: Date.now() }
        callback(null, completionsOf(line, names))
      })
    }
    const rl = readline.createInterface({
      input: process.stdin,
      output: process.stdout,
      terminal: true,
      history,
      historySize: ShellHistory.SIZE,
      completer
    })
    rl.on("line", (text) => Queue.unsafeOffer(inputs, { _tag: "line", text }))
    rl.on("close", () => Queue.unsafeOffer(inputs, { _tag: "close" }))
    rl.on("SIGINT", () => {
      if (running !== undefined) Effect.runFork(Fiber.interrupt(running))
      else Queue.unsafeOffer(inputs, { _tag: "interrupt" })
    })
    const prompt = (text: string) => Effect.sync(() => (rl.setPrompt(text), rl.prompt()))

    yield* errorLine(
      dim(
        `sluice shell on ${session.url} (profile ${session.profileName}). help; for help, Ctrl-D to leave.`
      )
    )
    let buffer = ""
    let typed: Array<string> = []
    yield* prompt(PROMPT)
    for (;;) {
      const input = yield* Queue.take(inputs)
      if (input._tag === "close") break
      if (input._tag === "interrupt") {
        rl.write(null, { ctrl: true, name: "e" })
        rl.write(null, { ctrl: true, name: "u" })
        process.stdout.write("^C\n")
        buffer = ""
        typed = []
        yield* prompt(PROMPT)
        continue
      }
      const text = input.text
      if (buffer === "" && /^\s*(exit|quit|\\q)\s*;?\s*$/i.test(text)) break
      if (buffer === "" && /^\s*(help|\\\?|\\h)\s*;?\s*$/i.test(text)) {
        yield* errorLine(HELP)
        yield* prompt(PROMPT)
        continue
      }
      buffer = buffer === "" ? text : `${buffer}\n${text}`
      typed.push(text)
      const { statements, rest } = splitStatements(buffer)
      if (statements.length === 0) {
        if (buffer.trim() === "") buffer = ""
        yield* prompt(buffer === "" ? PROMPT : MORE)
        continue
      }
      // The statement's lines become one history entry, recalled whole by the up arrow.
      for (const line of typed.reverse()) if (history[0] === line) history.shift()
      const entry = statements.map((s) => `${s.replace(/\s*\n\s*/g, " ")};`).join(" ")
      const older = history.indexOf(entry)
      if (older !== -1) history.splice(older, 1)
      history.unshift(entry)
      ShellHistory.append(entry)
      buffer = rest
      typed = []
      for (const statement of statements) {
        running = yield* Effect.fork(runStatement(session, statement))
        const exit = yield* Fiber.await(running)
        running = undefined
        if (Exit.isSuccess(exit)) session = exit.value
        else {
          if (!Cause.isInterruptedOnly(exit.cause)) {
            const error = Cause.squash(exit.cause)
            process.stderr.write(
              errorText(error instanceof CliError ? error : { message: String(error), hint: "" })
            )
          }
          break
        }
      }
      yield* prompt(buffer === "" ? PROMPT : MORE)
    }
    rl.close()
    process.stdout.write("\n")
  })

export const shell = Command.make("shell", { ...scopeOptions }, (flags) =>
  Effect.gen(function* () {
    const session = yield* signedIn(flags)
    if (!stdinIsTTY()) return yield* piped(session)
    if (!stdoutIsTTY())
      return yield* Effect.fail(
        badUsage("The shell needs a terminal for its output.", "Use `sluice query` in scripts.")
      )
    yield* interactive(session)
  })
).pipe(
  Command.withDescription(
    "An interactive SQL shell: statements end with ; and may span lines, Tab completes, history is kept, Ctrl-C cancels the running statement. Piped in, runs each statement. Example: sluice shell -d analytics"
  )
)
