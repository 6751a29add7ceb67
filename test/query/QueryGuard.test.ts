import { describe, expect, it } from "@effect/vitest"
import { parseStatement } from "../../src/query/ParsedStatement.js"
import * as Guard from "../../src/query/QueryGuard.js"

// Each check reads the statement as the runner hands it over: lexed once.
const forbiddenReference = (sql: string) => Guard.forbiddenReference(parseStatement(sql))
const refusedCall = (sql: string) => Guard.refusedCall(parseStatement(sql))
const refusedShow = (sql: string) => Guard.refusedShow(parseStatement(sql))
const refusedStatement = (sql: string) => Guard.refusedStatement(parseStatement(sql))
const unknownStatement = (sql: string) => Guard.unknownStatement(parseStatement(sql))
const severalStatements = (sql: string) => Guard.severalStatements(parseStatement(sql))

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
      "SELECT 1 into /* c */ outfile 'x.csv'",
      // The typographic quotes are identifier quotes to the engine.
      "SELECT substring(query, 1, 100) FROM \u201Csystem\u201D.processes",
      "SELECT * FROM \u201Csystem\u201D.\u201Cdisks\u201D",
      "SHOW TABLES FROM \u201Csystem\u201D",
      "DESC \u201Csystem\u201D.processes",
      // Characters the engine reads as whitespace do not hide a name.
      "SELECT * FROM\u200Bsystem.processes",
      "SELECT * FROM system\u3000.\uFEFFprocesses",
      // Comments nest: what follows the inner `*/` is still a comment to the engine.
      "SELECT 1 /* a /* b */ ' */ FROM system.processes -- '"
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

  it("refuses every call of a function that reads files, the network or the server", () => {
    for (const [sql, name] of [
      ["SELECT file('/proc/self/environ') AS e", "file"],
      ["SELECT FILE('/etc/passwd')", "FILE"],
      ["SELECT `file`('/etc/passwd')", "file"],
      ["SELECT \u201Cfile\u201D('/etc/passwd')", "file"],
      ["SELECT file /* c */ ('/etc/passwd')", "file"],
      ["SELECT file\u200B('/etc/passwd')", "file"],
      ["SELECT arrayMap(x -> file(x), ['/etc/passwd'])", "file"],
      ["SELECT getServerSetting('path')", "getServerSetting"],
      ["SELECT hostname()", "hostname"],
      ["SELECT * FROM url('http://127.0.0.1:1/', 'LineAsString')", "url"],
      ["SELECT * FROM eval('SELECT 1')", "eval"],
      ["SELECT * FROM executable('x', 'TSV', 'a String')", "executable"],
      ["SELECT dictGet('d', 'a', 1)", "dictGet"],
      ["SELECT catboostEvaluate('/etc/passwd', 1)", "catboostEvaluate"],
      ["SELECT 1 /* a /* b */ ' */ , file('/etc/passwd') -- '", "file"],
      ["EXPLAIN SELECT file('/etc/passwd')", "file"]
    ] as const) {
      expect(refusedCall(sql), sql).toMatchObject({ _tag: "Denied", name })
    }
    expect(refusedCall("SELECT cout(*) FROM t")).toEqual({
      _tag: "Unknown",
      name: "cout",
      suggestion: "count"
    })
  })

  it("lets the functions, aggregates, types and syntax a query needs through", () => {
    for (const sql of [
      "SELECT count(), COUNT(*), sumIf(x, x > 0), uniqArrayOrNull(a) FROM t",
      "SELECT quantiles(0.5, 0.9)(d), quantileTDigestIf(0.9)(d, ok) FROM t",
      "SELECT CAST(x AS Nullable(String)), toDateTime64(t, 3), EXTRACT(DAY FROM d) FROM t",
      "SELECT trim(BOTH ' ' FROM s), x IN (1, 2), NOT (a AND b) FROM t",
      "SELECT row_number() OVER (PARTITION BY h ORDER BY t) FROM t",
      "WITH w AS (SELECT 1) SELECT * FROM w",
      "SELECT * FROM numbers(10)",
      "SELECT * FROM format(JSONEachRow, '{\"a\": 1}')",
      "SELECT 'file(1)', $$getServerSetting('path')$$ -- file('/etc/passwd')",
      "SELECT timeSeriesRateToGrid(0, 60, 15, 60)(t, v) FROM s"
    ]) {
      expect(refusedCall(sql), sql).toBeUndefined()
    }
  })

  it("lets SHOW list tables, columns and databases but not access entities or processes", () => {
    for (const sql of [
      "SHOW TABLES",
      "SHOW DATABASES",
      "SHOW COLUMNS FROM t",
      "SHOW CREATE TABLE t"
    ]) {
      expect(refusedShow(sql), sql).toBeUndefined()
    }
    for (const sql of [
      "SHOW USERS",
      "SHOW GRANTS",
      "SHOW MERGES",
      "SHOW CREATE USER default",
      "SHOW ACCESS"
    ]) {
      expect(refusedShow(sql), sql).toBeDefined()
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
