/**
 * Where a statement names a database, as a shared ClickHouse server must read it: the
 * cluster's databases under their prefixed names, and nothing else renamed.
 */
import { describe, expect, it } from "vitest"
import { engineStatement } from "../../src/query/DatabaseQualifiers.js"
import { parseStatement } from "../../src/query/ParsedStatement.js"

const onServer = { databasePrefix: "sluice_c1__" }
const rewritten = (sql: string) => engineStatement(parseStatement(sql), onServer, "default")

describe("engineStatement", () => {
  it("renames databases where a table or database is named", () => {
    const cases: ReadonlyArray<readonly [string, string]> = [
      ["SELECT * FROM sales.orders", "SELECT * FROM `sluice_c1__sales`.orders"],
      [
        "SELECT * FROM a.t JOIN b.u ON t.k = u.k",
        "SELECT * FROM `sluice_c1__a`.t JOIN `sluice_c1__b`.u ON t.k = u.k"
      ],
      [
        "SELECT 1 FROM `sales`.orders, x.y AS z",
        "SELECT 1 FROM `sluice_c1__sales`.orders, `sluice_c1__x`.y AS z"
      ],
      [
        "SELECT * FROM (SELECT * FROM sales.orders)",
        "SELECT * FROM (SELECT * FROM `sluice_c1__sales`.orders)"
      ],
      ["DESCRIBE TABLE sales.orders", "DESCRIBE TABLE `sluice_c1__sales`.orders"],
      ["desc sales.orders", "desc `sluice_c1__sales`.orders"],
      ["EXISTS sales.orders", "EXISTS `sluice_c1__sales`.orders"],
      ["SHOW FULL TABLES IN sales LIKE 'o%'", "SHOW FULL TABLES IN `sluice_c1__sales` LIKE 'o%'"],
      ["SHOW COLUMNS FROM orders FROM sales", "SHOW COLUMNS FROM orders FROM `sluice_c1__sales`"],
      ["SHOW COLUMNS FROM sales.orders", "SHOW COLUMNS FROM `sluice_c1__sales`.orders"],
      ["SHOW CREATE TABLE sales.orders", "SHOW CREATE TABLE `sluice_c1__sales`.orders"],
      ["SHOW CREATE DATABASE sales", "SHOW CREATE DATABASE `sluice_c1__sales`"]
    ]
    for (const [sql, expected] of cases) expect(rewritten(sql), sql).toBe(expected)
  })

  it("leaves columns, JSON paths, strings, comments and the engine's own databases", () => {
    const unchanged = [
      "SELECT o.total, attributes.http.method FROM orders AS o",
      "SELECT 'FROM sales.orders' -- FROM sales.orders\nFROM t",
      "SELECT * FROM system.numbers LIMIT 1",
      "SELECT * FROM INFORMATION_SCHEMA.tables",
      "SELECT * FROM numbers(3)",
      "SHOW COLUMNS FROM orders",
      "SELECT * FROM orders WHERE id IN (1, 2)"
    ]
    for (const sql of unchanged) expect(rewritten(sql), sql).toBe(sql)
  })

  it("changes nothing on an engine of the cluster's own", () => {
    const sql = "SELECT * FROM sales.orders"
    expect(engineStatement(parseStatement(sql), { databasePrefix: "" }, "default")).toBe(sql)
  })
})
