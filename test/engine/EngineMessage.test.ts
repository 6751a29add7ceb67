import { describe, expect, it } from "@effect/vitest"
import { cleanEngineMessage, toEngineError } from "../../src/engine/EngineMessage.js"
import * as Sql from "../../src/engine/Sql.js"
import { InsertRequest } from "../../domain/Engine.js"

describe("cleanEngineMessage", () => {
  it("drops the exception prefix, the error name and the server version", () => {
    expect(
      cleanEngineMessage(
        "Code: 60. DB::Exception: Table default.x does not exist. (UNKNOWN_TABLE) (version 24.3.1.2672 (official build))"
      )
    ).toBe("Table default.x does not exist.")
  })

  it("keeps the innermost message of a nested exception", () => {
    expect(
      cleanEngineMessage(
        "Code: 57. DB::Exception: There was an error on [host:9000]: Code: 57. DB::Exception: Table t exists. (TABLE_ALREADY_EXISTS) (version 25.1.1.1). (TABLE_ALREADY_EXISTS) (version 25.1.1.1)"
      )
    ).toBe("Table t exists.")
  })

  it("replaces server file paths, including the data directory", () => {
    const message = cleanEngineMessage(
      "Cannot stat file /tmp/sluice/clusters/1f2e/user_files/x.csv: , errno: 2: (in file/uri /home/ch/data/x.csv). Also '/var/lib/clickhouse/store'"
    )
    expect(message).not.toMatch(/\/(tmp|home|var)\//)
    expect(message).toBe("Cannot stat file <path>: , errno: 2: (in file/uri <path>). Also '<path>'")
  })

  it("leaves division, URLs and relative names alone", () => {
    expect(cleanEngineMessage("Bad value 1/2 at https://example.com/a in file/uri")).toBe(
      "Bad value 1/2 at https://example.com/a in file/uri"
    )
  })

  it("cuts stack traces", () => {
    const raw =
      "Code: 49. DB::Exception: Logical error: 'x'. (LOGICAL_ERROR)\nStack trace (when copying this message, always include the lines below):\n\n0. /build/src/Common/Exception.cpp:100: DB::Exception::Exception() @ 0x0\n1. ./build/x"
    expect(cleanEngineMessage(raw)).toBe("Logical error: 'x'.")
  })

  it("collapses the line breaks chDB puts in parse errors", () => {
    expect(
      cleanEngineMessage(
        "JSON object should start with '{': (at row 2)\n: While executing ParallelParsingBlockInputFormat. "
      )
    ).toBe(
      "JSON object should start with '{': (at row 2) : While executing ParallelParsingBlockInputFormat."
    )
  })
})

describe("toEngineError", () => {
  it("takes code and type from a client error, parsing the numeric code", () => {
    const error = Object.assign(new Error("Syntax error: failed at position 1"), {
      code: "62",
      type: "SYNTAX_ERROR"
    })
    expect(toEngineError(error)).toMatchObject({
      code: 62,
      type: "SYNTAX_ERROR",
      message: "Syntax error: failed at position 1"
    })
  })

  it("parses code and type out of a raw ClickHouse message", () => {
    expect(
      toEngineError(
        new Error(
          "Code: 164. DB::Exception: default: Cannot execute query in readonly mode. (READONLY) (version 26.7.1)"
        )
      )
    ).toMatchObject({
      code: 164,
      type: "READONLY",
      message: "default: Cannot execute query in readonly mode."
    })
  })

  it("says a socket's failure is an unreachable server, without its address", () => {
    const refused = Object.assign(new Error("connect ECONNREFUSED 10.1.2.3:8123"), {
      code: "ECONNREFUSED"
    })
    expect(toEngineError(refused)).toMatchObject({
      type: "ENGINE_UNREACHABLE",
      message: "The ClickHouse server could not be reached (connection refused)."
    })
    expect(toEngineError(refused).code).toBeUndefined()
    const reset = Object.assign(new Error("socket hang up"), { code: "ECONNRESET" })
    expect(toEngineError(reset).message).toBe(
      "The ClickHouse server could not be reached (the connection was reset)."
    )
  })

  it("keeps another error's message when its code is not numeric", () => {
    const error = Object.assign(new Error("The user aborted a request."), { code: "ABORT_ERR" })
    const mapped = toEngineError(error)
    expect(mapped.code).toBeUndefined()
    expect(mapped.type).toBeUndefined()
    expect(mapped.message).toBe("The user aborted a request.")
  })
})

describe("Sql", () => {
  it("puts FORMAT on its own line after a trailing comment or semicolon", () => {
    expect(Sql.withFormat("SELECT 1 -- note", "CSV")).toBe("SELECT 1 -- note\nFORMAT CSV")
    expect(Sql.withFormat("SELECT 1; \n", "JSON")).toBe("SELECT 1\nFORMAT JSON")
    expect(Sql.withFormat("SELECT 1; -- note", "CSV")).toBe("SELECT 1  -- note\nFORMAT CSV")
    expect(Sql.withFormat("SELECT 1 /* a; */ ;; /* b */", "CSV")).toBe(
      "SELECT 1 /* a; */    /* b */\nFORMAT CSV"
    )
  })

  it("leaves semicolons inside strings and before later statements alone", () => {
    expect(Sql.withFormat("SELECT 'a;--b'", "CSV")).toBe("SELECT 'a;--b'\nFORMAT CSV")
    expect(Sql.withFormat("SELECT 'it\\'s;'", "CSV")).toBe("SELECT 'it\\'s;'\nFORMAT CSV")
    expect(Sql.withFormat("SELECT 1; SELECT 2", "CSV")).toBe("SELECT 1; SELECT 2\nFORMAT CSV")
  })

  it("applies readonly last and tags the statement with its query id", () => {
    const settings = Sql.statementSettings(
      { output_format_json_quote_64bit_integers: 1 },
      { readonly: 1, max_threads: 2 },
      "q1"
    )
    expect(Object.keys(settings)).toEqual([
      "output_format_json_quote_64bit_integers",
      "max_threads",
      "log_comment",
      "readonly"
    ])
  })

  it("sets a session up with one SET, readonly last, after the database", () => {
    expect(Sql.sessionStatements("db", { max_threads: 2, log_comment: "q'1", readonly: 1 })).toBe(
      "USE `db`; SET max_threads = 2, log_comment = 'q\\'1', readonly = 1"
    )
    expect(Sql.sessionStatements(undefined, {})).toBe("SELECT 1")
  })

  it("marks a query's end with its id, and keeps end-of-query positions the user's", () => {
    const sql = "SELECT a\nFROM t WHERE"
    const marked = Sql.withQueryMarker(sql, "q1")
    expect(marked).toBe("SELECT a\nFROM t WHERE\n/* sluice:q1 */")
    expect(
      Sql.withoutMarkerPosition(
        "Syntax error: failed at position 38 (end of query) (line 3, col 16): . Expected one of: expression",
        sql
      )
    ).toBe(
      "Syntax error: failed at position 22 (end of query) (line 2, col 13): . Expected one of: expression"
    )
    expect(
      Sql.withoutMarkerPosition(
        "Syntax error: failed at position 27 (end of query) (line 2, col 16): .",
        "SELECT 'é' +"
      )
    ).toBe("Syntax error: failed at position 14 (end of query): .")
    // Other messages are left as they are.
    expect(Sql.withoutMarkerPosition("Syntax error: failed at position 1 ('SELEC'):", sql)).toBe(
      "Syntax error: failed at position 1 ('SELEC'):"
    )
  })

  it("quotes identifiers in an insert", () => {
    const request = new InsertRequest({
      database: "db",
      table: "t`x",
      format: "JSONEachRow",
      columns: ["a", "b"],
      queryId: "q"
    })
    expect(Sql.insertStatement(request)).toBe(
      "INSERT INTO `db`.`t\\`x` (`a`, `b`) FORMAT JSONEachRow"
    )
  })
})
