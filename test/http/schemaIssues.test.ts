/** Schema's decode issues worded per field, as the API's 400s and the CLI's usage errors say them. */
import { describe, expect, it } from "@effect/vitest"
import { Either, ParseResult, Schema } from "effect"
import { describeProblem, fieldProblems } from "../../domain/SchemaIssues.js"

const Request = Schema.Struct({
  sql: Schema.String,
  format: Schema.optional(Schema.Literal("JSON", "CSV", 'Tab"Separated')),
  limit: Schema.optional(Schema.NonNegativeInt),
  since: Schema.optional(Schema.DateTimeUtc),
  count: Schema.optional(Schema.NumberFromString),
  level: Schema.optional(Schema.Literal(1, 2)),
  tags: Schema.optional(Schema.Array(Schema.String))
})

const sentences = (input: unknown) => {
  const decoded = Schema.decodeUnknownEither(Request, { errors: "all" })(input)
  if (Either.isRight(decoded)) throw new Error("expected a refusal")
  return fieldProblems(ParseResult.ArrayFormatter.formatErrorSync(decoded.left)).map((field) =>
    describeProblem(field)
  )
}

describe("fieldProblems", () => {
  it("says what a string failed to become in words, not by the schema's name", () => {
    expect(sentences({ sql: "SELECT 1", since: "yesterday", count: "many" })).toEqual([
      'since: "yesterday" is not an ISO 8601 date and time (e.g. 2026-01-31T12:00:00Z)',
      'count: "many" is not a number'
    ])
  })

  it("folds a literal union into the value and every choice, in the schema's order", () => {
    expect(sentences({ sql: "SELECT 1", format: "Pretty" })).toEqual([
      'format: "Pretty" is not one of: JSON, CSV, Tab"Separated'
    ])
    expect(sentences({ sql: "SELECT 1", level: 3 })).toEqual(["level: 3 is not one of: 1, 2"])
  })

  it("drops an optional field's absent branch, keeps the rule it broke", () => {
    expect(sentences({ sql: "SELECT 1", limit: -1 })).toEqual([
      "limit: Expected a non-negative number, actual -1"
    ])
  })

  it("names a missing field, and every field in the order met, with its own path", () => {
    expect(sentences({ format: "XML", tags: ["a", 2] })).toEqual([
      "sql is missing",
      'format: "XML" is not one of: JSON, CSV, Tab"Separated',
      "tags.1: Expected string, actual 2"
    ])
  })

  it("keeps the message of a single issue as Schema gave it, and the value as a whole", () => {
    const [whole, ...more] = sentences("SELECT 1")
    expect(more).toEqual([])
    expect(whole).toMatch(/^Expected \{ readonly sql: string; .* \}, actual "SELECT 1"$/)
  })
})
