/** Where the shell ends a statement, and what Tab offers. */
import { describe, expect, it } from "@effect/vitest"
import { completionsOf, splitStatements } from "../../src/cli/SqlText.js"

describe("shell statements", () => {
  it("ends a statement at a ; outside quotes and comments, keeping what follows", () => {
    expect(splitStatements("SELECT 1;\nSELECT ';' AS s, `a;b`; SELECT 3")).toEqual({
      statements: ["SELECT 1", "SELECT ';' AS s, `a;b`"],
      rest: "SELECT 3"
    })
    expect(splitStatements("SELECT 'it''s;' -- not here;\n, /* nor; */ 2;")).toEqual({
      statements: ["SELECT 'it''s;' -- not here;\n, /* nor; */ 2"],
      rest: ""
    })
    expect(splitStatements("SELECT 'open;")).toEqual({ statements: [], rest: "SELECT 'open;" })
    expect(splitStatements(" ; ;")).toEqual({ statements: [], rest: "" })
  })

  it("completes keywords in the case typed and tables after FROM first", () => {
    expect(completionsOf("sel", [])).toEqual([["select"], "sel"])
    expect(completionsOf("SEL", [])).toEqual([["SELECT"], "SEL"])
    expect(completionsOf("SELECT * FROM ev", ["events", "errors"])).toEqual([["events"], "ev"])
    expect(completionsOf("SELECT * FROM e", ["events", "errors"])[0].slice(0, 2)).toEqual([
      "events",
      "errors"
    ])
    expect(completionsOf("SELECT count", [])[0]).toEqual(["count", "countIf"])
    expect(completionsOf("SELECT 1 ", [])).toEqual([[], ""])
  })
})
