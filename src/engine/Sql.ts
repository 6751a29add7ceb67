/** Statement text the engine builds around caller SQL. */
import { Effect } from "effect"
import { EngineError } from "../../domain/Engine.js"
import type { EngineSettings, InsertRequest } from "../../domain/Engine.js"

const FORMAT_NAME = /^[A-Za-z][A-Za-z0-9_]*$/

/** Format names are spliced into SQL, so only bare names pass. */
export const formatName = (format: string): Effect.Effect<string, EngineError> =>
  FORMAT_NAME.test(format)
    ? Effect.succeed(format)
    : Effect.fail(
        new EngineError({
          message: `Unknown format ${JSON.stringify(format)}`,
          type: "UNKNOWN_FORMAT"
        })
      )

/**
 * `exec` takes the FORMAT clause in the SQL. It goes on its own line so a trailing
 * `-- comment` cannot swallow it; a trailing `;` would end the statement before it.
 */
export const withFormat = (sql: string, format: string): string =>
  `${stripTrailingSemicolons(sql).trimEnd()}\nFORMAT ${format}`

/**
 * The statement writing its result as `format` into `file`, a path of the engine's own,
 * instead of answering it (`INTO OUTFILE`). On its own line, as `withFormat`'s clause.
 */
export const intoFile = (sql: string, file: string, format: string): string =>
  `${stripTrailingSemicolons(sql).trimEnd()}\nINTO OUTFILE ${quoteString(file)} FORMAT ${format}`

/** Drops `;`s with nothing but whitespace and comments after them (not inside strings). */
export const stripTrailingSemicolons = (sql: string): string => {
  const semicolons: Array<number> = []
  let lastOther = -1
  for (let i = 0; i < sql.length; i++) {
    const c = sql[i]
    if (c === "-" && sql[i + 1] === "-") {
      const end = sql.indexOf("\n", i)
      i = end === -1 ? sql.length : end
    } else if (c === "/" && sql[i + 1] === "*") {
      const end = sql.indexOf("*/", i + 2)
      i = end === -1 ? sql.length : end + 1
    } else if (c === "'" || c === '"' || c === "`") {
      let j = i + 1
      while (j < sql.length && sql[j] !== c) j += sql[j] === "\\" ? 2 : 1
      lastOther = i = j
    } else if (c === ";") semicolons.push(i)
    else if (c !== undefined && /\S/.test(c)) lastOther = i
  }
  return semicolons
    .filter((i) => i > lastOther)
    .reduce((text, i) => `${text.slice(0, i)} ${text.slice(i + 1)}`, sql)
}

/** The one quoting of names and text spliced into SQL (backslash escapes, as ClickHouse reads them). */
export const quoteIdentifier = (name: string): string =>
  "`" + name.replace(/\\/g, "\\\\").replace(/`/g, "\\`") + "`"

export const quoteString = (value: string): string =>
  "'" + value.replace(/\\/g, "\\\\").replace(/'/g, "\\'") + "'"

/**
 * `settings`, when given, go in the statement's own `SETTINGS` clause: chDB then runs the
 * insert in one call instead of a session `SET` and the insert. `fromFile`: the engine
 * reads the data from that file of its own (`FROM INFILE`, NativeSession.ts).
 */
export const insertStatement = (
  request: InsertRequest,
  settings: Record<string, string | number | boolean> = {},
  fromFile?: string
): string => {
  const columns =
    request.columns === undefined ? "" : ` (${request.columns.map(quoteIdentifier).join(", ")})`
  const table = `${quoteIdentifier(request.database)}.${quoteIdentifier(request.table)}`
  const source = fromFile === undefined ? "" : ` FROM INFILE ${quoteString(fromFile)}`
  const changes = settingChanges(settings)
  const clause = changes.length === 0 ? "" : ` SETTINGS ${changes.join(", ")}`
  return `INSERT INTO ${table}${columns}${source}${clause} FORMAT ${request.format}`
}

/**
 * chDB has no server-side query id (it makes up its own), so a statement also carries
 * ours: in `log_comment`, or, for a query on a kept session (whose settings cannot change),
 * as a marker ending its text (`withQueryMarker`). A kill matches any of the three.
 * `SYNC` answers once the queries have stopped: on a ClickHouse server a killed query's
 * answer could end before the server let go of its id, and the id was still taken.
 */
export const killStatement = (wait: "SYNC" | "ASYNC") =>
  "KILL QUERY WHERE query_id = {id:String} OR Settings['log_comment'] = {id:String} " +
  `OR endsWith(query, concat('\n/* sluice:', {id:String}, ' */')) ${wait}\nFORMAT TabSeparated`

/**
 * `sql` with our query id as a comment on a line of its own at the end (after the text, so
 * positions in the engine's error messages stay the user's).
 */
export const withQueryMarker = (sql: string, queryId: string): string =>
  `${sql}\n/* sluice:${queryId} */`

const END_OF_QUERY = /failed at position \d+ \(end of query\)(?: \(line \d+, col \d+\))?/

/**
 * A syntax error at the end of a marked query points past the user's text, into the
 * marker: it is pointed back at the end of `sql`, as the engine would say it for `sql`.
 */
export const withoutMarkerPosition = (message: string, sql: string): string =>
  message.replace(END_OF_QUERY, () => {
    const lines = sql.split("\n")
    const at = `failed at position ${Buffer.byteLength(sql) + 1} (end of query)`
    return lines.length === 1
      ? at
      : `${at} (line ${lines.length}, col ${Buffer.byteLength(lines[lines.length - 1]!) + 1})`
  })

/**
 * chDB applies settings as `SET`s in key order, and after `readonly=1` no other setting
 * may change: `readonly` goes last. A ClickHouse server applies them all at once.
 */
export const statementSettings = (
  defaults: EngineSettings,
  requested: EngineSettings,
  queryId: string | undefined
): Record<string, string | number | boolean> => {
  const { readonly, ...rest } = { ...defaults, ...requested }
  return {
    ...rest,
    ...(queryId === undefined ? {} : { log_comment: queryId }),
    ...(readonly === undefined ? {} : { readonly })
  }
}

const settingValue = (value: string | number | boolean): string =>
  typeof value === "number"
    ? String(value)
    : typeof value === "boolean"
      ? value
        ? "1"
        : "0"
      : quoteString(value)

const settingChanges = (settings: Record<string, string | number | boolean>) =>
  Object.entries(settings)
    .filter(([key]) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(key))
    .map(([key, value]) => `${key} = ${settingValue(value)}`)

/**
 * Session statements for chDB's native calls: the current database, then one `SET` of
 * the settings in the order given (`statementSettings` puts `readonly` last). One `SET`
 * rather than one per setting: each statement is a round trip into the engine, and the
 * engine checks a `SET`'s changes against the settings before it, so `readonly` last
 * still lets the others through.
 */
export const sessionStatements = (
  database: string | undefined,
  settings: Record<string, string | number | boolean>
): string => {
  const changes = settingChanges(settings)
  return (
    [
      ...(database === undefined ? [] : [`USE ${quoteIdentifier(database)}`]),
      ...(changes.length === 0 ? [] : [`SET ${changes.join(", ")}`])
    ].join("; ") || "SELECT 1"
  )
}
