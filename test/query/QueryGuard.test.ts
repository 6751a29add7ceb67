import { describe, expect, it } from "@effect/vitest"
import {
  forbiddenReference,
  refusedStatement,
  unknownStatement,
  severalStatements
} from "../../src/query/QueryGuard.js"

describe("QueryGuard", () => {
  it("refuses system tables that show statements, however they are written", () => {
    for (const sql of [
      "SELECT * FROM system.processes",
      "SELECT * FROM `system`.`query_log`",
      'SELECT * FROM "system"."text_log"',
      "SELECT * FROM system . processes",
      "SELECT * FROM /* c */ system/* c */./* c */processes",
      "SELECT * FROM `sy\\x73tem`.processes",
      "SELECT * FROM merge('system', 'proc')",
      "SELECT * FROM MERGE ( 'system', 'proc' )",
      "SHOW PROCESSLIST",
      "SHOW TABLES FROM system",
      "SELECT * FROM clusterAllReplicas('default', system.processes)",
      "SELECT $$x$$, * FROM system.processes",
      "SELECT 1 INTO OUTFILE 'x.csv'",
      "SELECT 1 into /* c */ outfile 'x.csv'"
    ]) {
      expect(forbiddenReference(sql), sql).toBeDefined()
    }
  })

  it("lets harmless system tables, strings, comments and columns named system through", () => {
    for (const sql of [
      "SELECT * FROM system.one",
      "SELECT count() FROM system.numbers LIMIT 10",
      "SELECT 'system.processes' AS s",
      "SELECT $tag$ system.processes $tag$",
      "SELECT 1 -- system.processes",
      "SELECT 1 /* system.processes */",
      "SELECT system FROM events WHERE system = 'linux'",
      "SELECT merge FROM events"
    ]) {
      expect(forbiddenReference(sql), sql).toBeUndefined()
    }
  })

  it("tells several statements from one with a trailing semicolon or a quoted ';'", () => {
    expect(severalStatements("SELECT 1; DROP TABLE t")).toBe(true)
    expect(severalStatements("SELECT 1;SELECT 2")).toBe(true)
    expect(severalStatements("SELECT 1;")).toBe(false)
    expect(severalStatements("SELECT 1; -- done")).toBe(false)
    expect(severalStatements("SELECT 1;;")).toBe(false)
    expect(severalStatements("SELECT ';' AS s, `a;b` FROM t")).toBe(false)
  })

  it("lets only reading statements through", () => {
    for (const sql of [
      "SELECT 1",
      " (SELECT 1)",
      "-- c\nWITH 1 AS x SELECT x",
      "explain select 1",
      "DESC t",
      "SHOW TABLES",
      "EXISTS t"
    ]) {
      expect(refusedStatement(sql), sql).toBeUndefined()
    }
    for (const sql of [
      "KILL QUERY WHERE 1",
      "SYSTEM SHUTDOWN",
      "/* c */ INSERT INTO t VALUES (1)",
      "SET readonly = 0",
      "USE system",
      "OPTIMIZE TABLE t"
    ]) {
      expect(refusedStatement(sql), sql).toBeDefined()
    }
  })

  it("answers a word that starts no statement as a syntax error, suggesting the closest", () => {
    expect(refusedStatement("SELEC 1")).toBeUndefined()
    expect(unknownStatement("SELEC 1")?.hint).toMatch(/^Did you mean SELECT\?/)
    expect(unknownStatement("DESCRIBEE t")?.hint).toMatch(/^Did you mean DESCRIBE\?/)
    expect(unknownStatement("FROBNICATE t")?.hint).not.toContain("Did you mean")
    expect(unknownStatement("FROBNICATE t")?.message).toBe(
      "Syntax error: 'FROBNICATE' starts no statement."
    )
    for (const sql of ["SELECT 1", "show tables", "INSERT INTO t VALUES (1)", "KILL QUERY"]) {
      expect(unknownStatement(sql), sql).toBeUndefined()
    }
  })
})
