/**
 * What listing commands share: `--json` for scripts (the API's answer as it is), an
 * aligned table for people, and a confirmation before anything is destroyed.
 */
import * as Options from "@effect/cli/Options"
import { Effect } from "effect"
import { badUsage } from "./CliError.js"
import { line, stdinIsTTY } from "./Output.js"
import { confirm } from "./Stdin.js"
import * as Table from "./Table.js"

export const jsonOption = Options.boolean("json").pipe(
  Options.withDescription("Print the API's answer as JSON, for scripts")
)

export const yesOption = Options.boolean("yes").pipe(
  Options.withAlias("y"),
  Options.withDescription("Do not ask for confirmation")
)

export const printJson = (value: unknown) => line(JSON.stringify(value, null, 2))

/** Rows under a header, or a note on stdout's behalf when there are none. */
export const printTable = (
  header: ReadonlyArray<string>,
  rows: ReadonlyArray<ReadonlyArray<unknown>>,
  empty: string
) =>
  rows.length === 0
    ? Effect.sync(() => process.stderr.write(`${empty}\n`))
    : line(
        Table.render(
          header,
          rows.map((row) => row.map(Table.cell))
        )
      )

/** Key/value lines, the way `whoami` and `describe` print one record. */
export const printFields = (fields: ReadonlyArray<readonly [string, unknown]>) => {
  const width = Math.max(...fields.map(([name]) => name.length)) + 2
  return line(
    fields.map(([name, value]) => `${`${name}:`.padEnd(width)}${Table.cell(value)}`).join("\n")
  )
}

/** Asks before destroying something, unless `--yes`; without a terminal `--yes` is required. */
export const confirmed = (yes: boolean, what: string) =>
  yes
    ? Effect.succeed(true)
    : stdinIsTTY()
      ? confirm(`${what}?`)
      : Effect.fail(badUsage(`Refusing to ${what} without confirmation.`, "Pass --yes to confirm."))

/** An ISO timestamp as people read it in a listing: to the second, in UTC. */
export const when = (iso: string | null | undefined) =>
  iso === null || iso === undefined
    ? ""
    : iso.replace("T", " ").replace(/(\.\d+)?(Z|[+-]00:00)$/, "")
