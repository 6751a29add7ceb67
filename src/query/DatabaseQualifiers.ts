/**
 * A statement as its engine reads it. Where a query names one of its cluster's databases
 * (`FROM other.t`, `DESCRIBE other.t`, `SHOW TABLES FROM other`), the engine's name for
 * that database takes its place (`engineDatabase`): the same name on an engine of the
 * cluster's own, the namespace's prefixed name on a shared ClickHouse server. The
 * engine's own databases (`system`, `information_schema`) stay as written, and the
 * statement is unchanged when nothing needs renaming. `SHOW TABLES` and `SHOW DATABASES`
 * answer in the API's names (ShowStatements.ts).
 */
import type { AnalyticalEngine } from "../../domain/Engine.js"
import { ENGINE_DATABASES, quotedEngineDatabase } from "../databases/EngineDatabase.js"
import type { ParsedStatement } from "./ParsedStatement.js"
import { showStatementSql } from "./ShowStatements.js"

/** `database`: the request's, which a statement names by default. */
export const engineStatement = (
  statement: ParsedStatement,
  engine: Pick<AnalyticalEngine, "databasePrefix">,
  database: string
): string => {
  const shown = showStatementSql(statement, engine, database)
  if (shown !== undefined) return shown
  if (engine.databasePrefix === "") return statement.sql
  let sql = ""
  let from = 0
  for (const index of [...statement.references.databaseTokens].sort((a, b) => a - b)) {
    const token = statement.tokens[index]!
    if (ENGINE_DATABASES.has(token.text.toLowerCase())) continue
    sql += statement.sql.slice(from, token.start) + quotedEngineDatabase(engine, token.text)
    from = token.end
  }
  return from === 0 ? statement.sql : sql + statement.sql.slice(from)
}
