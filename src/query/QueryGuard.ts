/**
 * What the engine's read-only mode cannot refuse: reading the `system` tables that show
 * other callers' statements (processes, query and text logs …) and engine internals
 * (data paths, every database). Only harmless reference tables of `system` may be read,
 * and `merge()` (which reads tables by pattern, `system` included) is refused.
 * Statements must start with SELECT, WITH, EXPLAIN, DESCRIBE, SHOW or EXISTS: chDB answers
 * other kinds (SYSTEM, KILL …) on a path where only read-only mode stands in their way.
 * `INTO OUTFILE` is refused: read-only mode lets it write a file on the server.
 * Several statements are refused: chDB runs each of them when it answers in one piece.
 * Every call must name a function of the reviewed catalog (`catalog/`): the engine's
 * read-only mode refuses the `file` table function but not the `file` function, nor
 * those that tell the server's settings and host, so nothing that reaches files, the
 * network or the server is left to it. `SHOW` is limited to the forms that list tables,
 * columns, databases, engines, functions and settings.
 * Writes, DDL and setting changes are left to the engine's read-only mode.
 */
import { Effect } from "effect"
import { Forbidden, QueryRefused } from "../../domain/Errors.js"
import { nearest } from "../../domain/Suggestions.js"
import { READ_ONLY_HINT } from "./QueryErrors.js"
import type { ParsedStatement } from "./ParsedStatement.js"
import type { Token } from "./SqlTokens.js"
import { callRefusal } from "./catalog/Callables.js"
import type { CallRefusal } from "./catalog/Callables.js"

const HARMLESS_SYSTEM_TABLES = new Set([
  "one",
  "numbers",
  "numbers_mt",
  "zeros",
  "zeros_mt",
  "functions",
  "table_functions",
  "formats",
  "data_type_families",
  "time_zones",
  "collations",
  "keywords",
  "aggregate_function_combinators",
  "table_engines",
  "settings"
])

const DATABASE_KEYWORDS = new Set(["from", "in", "use", "database"])

const refuse = (what: string) =>
  new Forbidden({
    message: `Queries may not use ${what}.`,
    hint: `Of the system database only these tables may be read: ${[...HARMLESS_SYSTEM_TABLES].join(", ")}. GET /v1/tables lists your tables.`
  })

const STATEMENTS = new Set(["select", "with", "explain", "describe", "desc", "show", "exists"])

/** ClickHouse's statements that write, change settings or the server, or manage access. */
const WRITING_STATEMENTS = new Set(
  (
    "insert create alter drop truncate rename delete update optimize system kill set use " +
    "grant revoke attach detach exchange undrop backup restore watch move check replace " +
    "begin commit rollback"
  ).split(" ")
)

/** The statement's kind when it is one that writes (or otherwise does not only read). */
export const refusedStatement = ({ first }: ParsedStatement): string | undefined =>
  first !== undefined && WRITING_STATEMENTS.has(first.text.toLowerCase())
    ? first.text.toUpperCase()
    : undefined

/**
 * A syntax error for SQL whose first word starts no statement at all (`SELEC 1`), with
 * the reading statement it is closest to; `undefined` for any other SQL.
 */
export const unknownStatement = ({ first }: ParsedStatement): QueryRefused | undefined => {
  const word = first?.text.toLowerCase()
  if (word !== undefined && (STATEMENTS.has(word) || WRITING_STATEMENTS.has(word))) return undefined
  const closest = word === undefined ? undefined : nearest(word, STATEMENTS)
  const shown =
    first === undefined ? "The SQL is empty" : `'${first.text.slice(0, 64)}' starts no statement`
  return new QueryRefused({
    message: `Syntax error: ${shown}.`,
    hint:
      (closest === undefined ? "" : `Did you mean ${closest.toUpperCase()}? `) +
      "Queries start with SELECT, WITH, EXPLAIN, DESCRIBE, SHOW or EXISTS."
  })
}

/** What `sql` may not do, if anything. */
export const forbiddenReference = ({ tokens: list }: ParsedStatement): string | undefined => {
  for (let i = 0; i < list.length; i++) {
    const token = list[i]!
    if (token.kind === "escapedIdentifier") return "identifiers written with escape sequences"
    if (token.kind !== "identifier") continue
    const word = token.text.toLowerCase()
    const next = list[i + 1]
    // The engine's read-only mode lets `INTO OUTFILE` write a file on the server.
    if (word === "into" && list[i + 1]?.text.toLowerCase() === "outfile") return "into files"
    if (word === "processlist") return "the process list"
    if (word === "merge" && next?.text === "(") return "tables through merge()"
    if (token.text !== "system") continue
    if (next?.text === ".") {
      const table = list[i + 2]
      if (table === undefined || !HARMLESS_SYSTEM_TABLES.has(table.text.toLowerCase()))
        return `system.${table?.text ?? ""}`
    } else if (DATABASE_KEYWORDS.has(list[i - 1]?.text.toLowerCase() ?? "")) {
      return "the system database"
    }
  }
  return undefined
}

/** What `SHOW` may list: the caller's tables, columns, databases and the engine's catalog. */
const SHOWABLE = new Set(
  (
    "tables databases columns fields index indexes indices keys create engines functions " +
    "settings setting changed full extended temporary"
  ).split(" ")
)
/** `SHOW CREATE` of access entities and dictionaries tells what another cluster may not see. */
const UNSHOWABLE_CREATE = new Set(
  "user users role roles quota quotas policy row settings profile dictionary".split(" ")
)

/** The `SHOW …` form `sql` asks for, when it is not one a query may ask for. */
export const refusedShow = (statement: ParsedStatement): string | undefined => {
  if (statement.first?.text.toLowerCase() !== "show") return undefined
  const list = statement.tokens.filter((token) => token.text !== "(")
  const words = list.slice(1, 3).map((token) => token.text.toLowerCase())
  if (!SHOWABLE.has(words[0] ?? "")) return `SHOW ${words[0]?.toUpperCase() ?? ""}`.trim()
  if (words[0] === "create" && UNSHOWABLE_CREATE.has(words[1] ?? ""))
    return `SHOW CREATE ${words[1]!.toUpperCase()}`
  return undefined
}

const isName = (token: Token) => token.kind === "identifier" || token.kind === "escapedIdentifier"

/** The first call in `sql` the catalog does not allow: `file('/etc/passwd')`, `cout(*)`. */
export const refusedCall = ({ tokens: list }: ParsedStatement): CallRefusal | undefined => {
  for (let i = 0; i + 1 < list.length; i++) {
    const token = list[i]!
    if (!isName(token) || list[i + 1]!.text !== "(") continue
    const refusal = callRefusal(token.text)
    if (refusal !== undefined) return refusal
  }
  return undefined
}

const callRefused = (refusal: CallRefusal): QueryRefused | Forbidden =>
  refusal._tag === "Denied"
    ? new Forbidden({
        message: `Queries may not call ${refusal.name}(): it ${refusal.reason}.`,
        hint: "Functions and table functions that read files, reach the network or tell the server's settings are not available to queries."
      })
    : new QueryRefused({
        message: `Unknown function ${refusal.name}.`,
        hint:
          refusal.suggestion === undefined
            ? "SELECT name FROM system.functions lists the engine's functions."
            : `Did you mean ${refusal.suggestion}?`
      })

/** Whether anything but comments follows a `;` (the engine would run each statement). */
export const severalStatements = ({ tokens: list }: ParsedStatement): boolean => {
  const end = list.findIndex((token) => token.kind === "punctuation" && token.text === ";")
  return end !== -1 && list.slice(end + 1).some((token) => token.text !== ";")
}

export const guard = (
  statement: ParsedStatement
): Effect.Effect<void, QueryRefused | Forbidden> => {
  if (severalStatements(statement))
    return Effect.fail(
      new QueryRefused({
        message: "The SQL holds more than one statement.",
        hint: "Send one statement per request."
      })
    )
  const kind = refusedStatement(statement)
  const unknown = kind === undefined ? unknownStatement(statement) : undefined
  if (unknown !== undefined) return Effect.fail(unknown)
  if (kind !== undefined)
    return Effect.fail(
      new QueryRefused({
        message: `${kind} statements cannot run here: queries are read-only.`,
        hint: READ_ONLY_HINT
      })
    )
  const what = forbiddenReference(statement) ?? refusedShow(statement)
  if (what !== undefined) return Effect.fail(refuse(what))
  const call = refusedCall(statement)
  return call === undefined ? Effect.void : Effect.fail(callRefused(call))
}
