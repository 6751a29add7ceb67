/** The `search` parameter of `GET /v1/logs`: free text and tokens (pure function). */
import { describe, expect, it } from "@effect/vitest"
import { Either } from "effect"
import { parseSearch } from "../../src/requestlog/LogSearch.js"

const parsed = (search: string) => Either.getOrThrow(parseSearch(search))

describe("log search", () => {
  it("tokens become filters, the other words one phrase", () => {
    expect(parsed("  type:select   unknown  STATUS:Error table ")).toEqual({
      text: "unknown table",
      statuses: ["error"],
      origins: undefined,
      types: ["select"],
      tables: undefined,
      hints: undefined
    })
  })

  it("values are comma-separated, repeats add values, table names keep their case", () => {
    expect(parsed("origin:cli,ui origin:cli table:Events,users table:logs hints:none")).toEqual({
      text: undefined,
      statuses: undefined,
      origins: ["ui", "cli"],
      types: undefined,
      tables: ["Events", "users", "logs"],
      hints: ["none"]
    })
  })

  it("a word with another prefix is free text", () => {
    expect(parsed("https://example.com/a db:x")).toMatchObject({
      text: "https://example.com/a db:x",
      types: undefined
    })
  })

  it("a token value it does not know, or none, cannot be honoured", () => {
    const cases = [
      ["status:failed", "status:failed"],
      ["origin:browser", "origin:browser"],
      ["type:select,drop", "type:select,drop"],
      ["hints:", "hints:"],
      ["table:,", "table:,"]
    ] as const
    for (const [search, named] of cases) {
      const result = parseSearch(`free ${search}`)
      expect(Either.isLeft(result)).toBe(true)
      expect(Either.isLeft(result) ? result.left : "").toContain(`'${named}'`)
    }
  })
})
