/** `query`: one SQL statement from an argument, a file or stdin. */
import * as Args from "@effect/cli/Args"
import * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import { Effect, Option } from "effect"
import * as fs from "node:fs"
import type { QueryFormat } from "../../../domain/api/QueryApi.js"
import { badUsage, cannotRead } from "../CliError.js"
import { errorLine, stdinIsTTY, stdoutIsTTY } from "../Output.js"
import * as QueryStream from "../QueryStream.js"
import { requireToken, resolve, scopeOptions } from "../Session.js"
import { readAll } from "../Stdin.js"

const sqlOf = (argument: Option.Option<string>, file: Option.Option<string>) =>
  Option.isSome(argument)
    ? Option.isSome(file)
      ? Effect.fail(badUsage("Give the SQL as an argument or with -f, not both."))
      : Effect.succeed(argument.value)
    : Option.isSome(file)
      ? Effect.try({
          try: () => fs.readFileSync(file.value === "-" ? 0 : file.value, "utf8"),
          catch: (e) => cannotRead(file.value, e)
        })
      : stdinIsTTY()
        ? Effect.fail(
            badUsage(
              "No SQL given.",
              'Example: sluice query "SELECT 1", sluice query -f report.sql, or pipe it in.'
            )
          )
        : readAll

// The contract's formats, named here (a type import costs the start nothing) and checked
// against it both ways by the compiler.
const formats = [
  "JSON",
  "JSONEachRow",
  "JSONEachRowWithProgress",
  "JSONCompact",
  "CSV",
  "CSVWithNames",
  "TSV",
  "TSVWithNames",
  "TabSeparated"
] as const satisfies ReadonlyArray<QueryFormat>
const everyFormat: [Exclude<QueryFormat, (typeof formats)[number]>] extends [never] ? true : never =
  true
void everyFormat

export const query = Command.make(
  "query",
  {
    ...scopeOptions,
    sql: Args.text({ name: "sql" }).pipe(Args.withDescription("The SQL statement"), Args.optional),
    file: Options.text("file").pipe(
      Options.withAlias("f"),
      Options.withDescription("Read the SQL from this file (- for stdin)"),
      Options.optional
    ),
    format: Options.choice("format", formats).pipe(
      Options.withDescription(
        "Write the API's answer in this format, as it is (default: a table at a terminal, TSV into a pipe)"
      ),
      Options.optional
    ),
    queryId: Options.text("query-id").pipe(
      Options.withDescription(
        "The query's id (default: a new UUID); POST /v1/query/cancel takes it"
      ),
      Options.optional
    ),
    quiet: Options.boolean("quiet").pipe(
      Options.withAlias("q"),
      Options.withDescription("No statistics footer")
    )
  },
  (flags) =>
    Effect.gen(function* () {
      const session = yield* resolve(flags)
      yield* requireToken(session)
      const sql = (yield* sqlOf(flags.sql, flags.file)).trim().replace(/;\s*$/, "")
      if (sql === "") return yield* Effect.fail(badUsage("The SQL is empty."))
      const output: QueryStream.Output = Option.isSome(flags.format)
        ? { _tag: "raw", format: flags.format.value }
        : stdoutIsTTY()
          ? { _tag: "table" }
          : { _tag: "tsv" }
      const summary = yield* QueryStream.runCancellable(
        session,
        sql,
        output,
        Option.getOrUndefined(flags.queryId)
      )
      if (!flags.quiet && output._tag !== "raw") yield* errorLine(QueryStream.footer(summary))
    })
).pipe(
  Command.withDescription(
    'Run read-only SQL. Ctrl-C cancels it on the server. Example: sluice query "SELECT count() FROM events" | sluice query -f report.sql --format CSVWithNames > out.csv'
  )
)
