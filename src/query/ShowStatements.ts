/**
 * `SHOW TABLES` and `SHOW DATABASES` answered as the API lists them, on every engine:
 * - `SHOW TABLES [FROM|IN db] [[NOT] [I]LIKE 'p'] [LIMIT n]` without sluice's own tables
 *   (`__`-prefixed: insert tokens, staging tables, a cluster table's local shards);
 * - `SHOW DATABASES [[NOT] [I]LIKE 'p'] [LIMIT n]` on a shared ClickHouse server as the
 *   cluster's databases under their API names, without the namespace's prefix or other
 *   namespaces' databases (on an engine of the cluster's own, its names already are the
 *   API's).
 * Each becomes the `SELECT` over `system.tables` / `system.databases` that the engine
 * itself runs for the statement, with those rows left out; its column is `name`, as the
 * engine's. Other forms (`SHOW FULL TABLES`, `SHOW TEMPORARY TABLES` …) go as written.
 */
import type { AnalyticalEngine } from "../../domain/Engine.js"
import { ENGINE_DATABASES, engineDatabase } from "../databases/EngineDatabase.js"
import { quoteString } from "../engine/Sql.js"
import { INTERNAL_TABLE_PREFIX } from "../tables/Layout.js"
import type { ParsedStatement } from "./ParsedStatement.js"
import type { Token } from "./SqlTokens.js"

interface ShowForm {
  readonly what: "tables" | "databases"
  /** The token naming the database of `SHOW TABLES FROM db`. */
  readonly database?: Token
  /** `[NOT] LIKE 'p'` / `ILIKE`, as written. */
  readonly filter?: string
  readonly limit?: string
}

const wordAt = (tokens: ReadonlyArray<Token>, i: number) => {
  const token = tokens[i]
  return token?.kind === "identifier" ? token.text.toLowerCase() : undefined
}

/** The statement as one of the forms above, or `undefined` for anything else. */
const showForm = (statement: ParsedStatement): ShowForm | undefined => {
  const { tokens, sql } = statement
  const end = tokens.at(-1)?.text === ";" ? tokens.length - 1 : tokens.length
  if (wordAt(tokens, 0) !== "show") return undefined
  const what = wordAt(tokens, 1)
  if (what !== "tables" && what !== "databases") return undefined
  let i = 2
  let database: Token | undefined
  const from = wordAt(tokens, i)
  if (what === "tables" && (from === "from" || from === "in")) {
    const name = tokens[i + 1]
    if (name?.kind !== "identifier") return undefined
    database = name
    i += 2
  }
  let filter: string | undefined
  const not = wordAt(tokens, i) === "not"
  const like = wordAt(tokens, not ? i + 1 : i)
  if (like === "like" || like === "ilike") {
    const pattern = tokens[not ? i + 2 : i + 1]
    if (pattern?.kind !== "string") return undefined
    filter = `${not ? "NOT " : ""}${like.toUpperCase()} ${sql.slice(pattern.start, pattern.end)}`
    i += not ? 3 : 2
  }
  let limit: string | undefined
  if (wordAt(tokens, i) === "limit") {
    const count = tokens[i + 1]
    if (count?.kind !== "number" || !/^\d+$/.test(count.text)) return undefined
    limit = count.text
    i += 2
  }
  if (i !== end) return undefined
  return {
    what,
    ...(database === undefined ? {} : { database }),
    ...(filter === undefined ? {} : { filter }),
    ...(limit === undefined ? {} : { limit })
  }
}

const listed = (inner: string, form: ShowForm) =>
  `SELECT name FROM (${inner})` +
  (form.filter === undefined ? "" : ` WHERE name ${form.filter}`) +
  ` ORDER BY name` +
  (form.limit === undefined ? "" : ` LIMIT ${form.limit}`)

/**
 * The `SELECT` that answers `statement` in the API's names, or `undefined` when the
 * statement is not one of these forms (or needs no change on this engine).
 * `database`: the request's database, which `SHOW TABLES` lists by default.
 */
export const showStatementSql = (
  statement: ParsedStatement,
  engine: Pick<AnalyticalEngine, "databasePrefix">,
  database: string
): string | undefined => {
  const form = showForm(statement)
  if (form === undefined) return undefined
  if (form.what === "tables") {
    const named = form.database?.text ?? database
    const engineName = ENGINE_DATABASES.has(named.toLowerCase())
      ? named
      : engineDatabase(engine, named)
    return listed(
      `SELECT t.name AS name FROM system.tables AS t WHERE t.database = ${quoteString(engineName)} ` +
        `AND NOT startsWith(t.name, ${quoteString(INTERNAL_TABLE_PREFIX)})`,
      form
    )
  }
  const prefix = engine.databasePrefix
  if (prefix === "") return undefined
  return listed(
    `SELECT substring(d.name, ${prefix.length + 1}) AS name FROM system.databases AS d ` +
      `WHERE startsWith(d.name, ${quoteString(prefix)})`,
    form
  )
}
