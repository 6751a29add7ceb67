/**
 * Wildcard field names (`fields`, `table`, `rename`) match as `*` means "any text", each
 * `*` taking as much as it can, leftmost first; and no name or pattern makes matching
 * slow: a search naming `a*a*a*a*a*a*a*b` over a field of 70 a's held the server 2 s
 * when patterns were regular expressions. Worked out by hand.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { SplCompiler } from "../../domain/SplCompiler.js"
import { captures, matching, renamedBy } from "../../src/spl/compiler/FieldPatterns.js"
import { MAX_SPL_LENGTH } from "../../src/spl/compiler/Parse.js"
import { SplCompilerLive } from "../../src/spl/compiler/SplCompilerLive.js"

describe("wildcard field names", () => {
  it("match prefixes, suffixes and inner text, case-sensitively", () => {
    const names = ["host", "hostname", "xhost", "Host", "db_ms", "ms", "a_ms_b"]
    expect(matching("host*", names)).toEqual(["host", "hostname"])
    expect(matching("*_ms", names)).toEqual(["db_ms"])
    expect(matching("*ms*", names)).toEqual(["db_ms", "ms", "a_ms_b"])
    expect(matching("*", names)).toEqual(names)
  })

  it("a prefix and a suffix may not share characters", () => {
    expect(captures("ab*ba", "aba")).toBeNull()
    expect(captures("ab*ba", "abba")).toEqual([""])
  })

  it("punctuation is literal and * crosses line breaks", () => {
    expect(matching("a.(*)", ["a.(x)", "abxx)", "a.()"])).toEqual(["a.(x)", "a.()"])
    expect(matching("a*", ["a\nb"])).toEqual(["a\nb"])
    expect(matching("[*]", ["[x]", "x"])).toEqual(["[x]"])
  })

  it("each * takes as much as it can, leftmost first", () => {
    expect(captures("*_*", "a_b_c")).toEqual(["a_b", "c"])
    expect(captures("a**b", "a123b")).toEqual(["123", ""])
    expect(captures("*a*a*", "xaayaz")).toEqual(["xa", "y", "z"])
    expect(renamedBy("*_*", "*.*", "a_b_c")).toBe("a_b.c")
    expect(renamedBy("EU*", "EMEA*", "EU-west")).toBe("EMEA-west")
    expect(renamedBy("EU*", "EMEA*", "US-east")).toBeNull()
  })

  it("the name that took 2.3 s as a regular expression is matched at once", () => {
    // Backtracking grows as the 7th power of the length: 70 a's took 2.3 s, 400 would take
    // days. Linear matching answers them all in well under a millisecond.
    expect(matching("a*a*a*a*a*a*a*b", ["a".repeat(70)])).toEqual([])
    expect(renamedBy("a*a*a*a*a*a*a*b", "*******", "a".repeat(70))).toBeNull()
    expect(matching("a*a*a*a*a*a*a*b", ["a".repeat(MAX_SPL_LENGTH)])).toEqual([])
    expect(captures(`*${"a*".repeat(1000)}`, "a".repeat(MAX_SPL_LENGTH))).toHaveLength(1001)
  })
})

describe("field statistics' population", () => {
  it.effect("is the parsed search up to the stage, extended by a table of the fields", () =>
    Effect.gen(function* () {
      const compiler = yield* SplCompiler
      const spl = "x   |  eval a=1  \n |  stats count"
      const compiled = yield* compiler.compile(spl, {})
      // Each the same rows as the search written out by hand.
      const cases = [
        [1, ["host", "a"], "x | eval a=1 | table host, a"],
        [2, ["index"], `${spl} | table index`],
        [0, ["source", "a*"], "x | table source, a*"]
      ] as const
      for (const [population, fields, written] of cases) {
        const table = yield* compiler.compileFieldTable(spl, {}, [], population, fields)
        const expected = yield* compiler.compile(written, {})
        expect([table.unorderedSql, table.columns], written).toEqual([
          expected.unorderedSql,
          expected.columns
        ])
      }
      expect(compiled.stages).toHaveLength(3)
    }).pipe(Effect.provide(SplCompilerLive))
  )

  it.effect("takes field names as they are, quotes and commas included", () =>
    Effect.gen(function* () {
      const compiler = yield* SplCompiler
      const table = yield* compiler.compileFieldTable("x", {}, [], 0, ["it's", 'a "b"', "c, d"])
      expect(table.columns).toEqual(["it's", 'a "b"', "c, d"])
    }).pipe(Effect.provide(SplCompilerLive))
  )
})
