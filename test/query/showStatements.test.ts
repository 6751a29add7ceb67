/**
 * `SHOW TABLES` and `SHOW DATABASES` as the statements the engine runs for them, with
 * sluice's own tables and other namespaces left out (the black-box suite in
 * databases.test.ts runs them on both engines).
 */
import { describe, expect, it } from "vitest"
import { parseStatement } from "../../src/query/ParsedStatement.js"
import { showStatementSql } from "../../src/query/ShowStatements.js"

const onServer = { databasePrefix: "sluice_c1__" }
const own = { databasePrefix: "" }
const shown = (sql: string, engine = onServer) =>
  showStatementSql(parseStatement(sql), engine, "default")

const tablesOf = (database: string) =>
  `SELECT t.name AS name FROM system.tables AS t WHERE t.database = '${database}' ` +
  `AND NOT startsWith(t.name, '__')`

describe("showStatementSql", () => {
  it("lists a database's tables without sluice's own, filtered and limited as asked", () => {
    expect(shown("SHOW TABLES", own)).toBe(
      `SELECT name FROM (${tablesOf("default")}) ORDER BY name`
    )
    expect(shown("show tables from sales like 'o%' limit 5;")).toBe(
      `SELECT name FROM (${tablesOf("sluice_c1__sales")}) WHERE name LIKE 'o%' ORDER BY name LIMIT 5`
    )
    expect(shown("SHOW TABLES IN `sales` NOT ILIKE '%tmp%'", own)).toBe(
      `SELECT name FROM (${tablesOf("sales")}) WHERE name NOT ILIKE '%tmp%' ORDER BY name`
    )
    expect(shown("SHOW TABLES FROM system LIKE 'part%'")).toBe(
      `SELECT name FROM (${tablesOf("system")}) WHERE name LIKE 'part%' ORDER BY name`
    )
  })

  it("lists a shared server's databases of the cluster under their API names", () => {
    const databases =
      "SELECT substring(d.name, 12) AS name FROM system.databases AS d " +
      "WHERE startsWith(d.name, 'sluice_c1__')"
    expect(shown("SHOW DATABASES")).toBe(`SELECT name FROM (${databases}) ORDER BY name`)
    expect(shown("SHOW DATABASES LIKE 'sa%' LIMIT 2")).toBe(
      `SELECT name FROM (${databases}) WHERE name LIKE 'sa%' ORDER BY name LIMIT 2`
    )
    // An engine of the cluster's own already answers in the API's names.
    expect(shown("SHOW DATABASES", own)).toBeUndefined()
  })

  it("leaves every other form as written", () => {
    for (const sql of [
      "SHOW FULL TABLES",
      "SHOW TEMPORARY TABLES",
      "SHOW TABLES LIKE concat('a', '%')",
      "SHOW TABLES LIMIT 1 + 1",
      "SHOW TABLES FROM 'sales'",
      "SHOW TABLES FROM sales FORMAT JSON",
      "SHOW COLUMNS FROM orders",
      "SELECT * FROM system.tables"
    ])
      expect(shown(sql), sql).toBeUndefined()
  })
})
