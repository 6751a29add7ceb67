/**
 * How PromQL text groups into a tree: Prometheus's precedence (`^` right to left, then
 * `* / % atan2`, `+ -`, comparisons, `and unless`, `or`), a modifier bound to the operand
 * it follows, and the checks Prometheus makes while parsing. The expected groupings are
 * written out by hand with parentheses.
 */
import { describe, expect, it } from "@effect/vitest"
import type { Expr } from "../../src/prometheus/promql/parser/Ast.js"
import { parser } from "@prometheus-io/lezer-promql"
import { parsePromQL } from "../../src/prometheus/promql/parser/Parse.js"

/** The tree with the query's own parentheses forgotten, to compare groupings. */
const grouping = (text: string): unknown =>
  JSON.parse(
    JSON.stringify(parsePromQL(parser, text), (key, value) =>
      key === "parens" ? undefined : value
    )
  )

const same = (text: string, grouped: string) => expect(grouping(text)).toEqual(grouping(grouped))

describe("PromQL grouping", () => {
  it("follows Prometheus's precedence and associativity", () => {
    same("a + b * c", "a + (b * c)")
    same("a - b - c", "(a - b) - c")
    same("a ^ b ^ c", "a ^ (b ^ c)")
    same("a or b and c", "a or (b and c)")
    same("a unless b <= c < d", "a unless ((b <= c) < d)")
    same("a atan2 b + c", "(a atan2 b) + c")
  })

  it("binds offset and @ to the operand they follow, whatever comes after", () => {
    // lezer groups these as `(a unless b) offset 1m <= c`; Prometheus as below.
    same("a unless b offset 1m <= c", "a unless ((b offset 1m) <= c)")
    same("a and b @ 100 > 0", "a and ((b @ 100) > 0)")
    same("a or b offset 5m * 2 + c", "a or (((b offset 5m) * 2) + c)")
    same("a + b offset 1m", "a + (b offset 1m)")
    same(
      "x offset 1m unless y offset -1m <= ignoring (i) y offset -1m < ignoring (m) z offset 1m",
      "(x offset 1m) unless (((y offset -1m) <= ignoring (i) (y offset -1m)) < ignoring (m) (z offset 1m))"
    )
  })

  it("binds ^ tighter than a sign, however the sign is written", () => {
    const tree = parsePromQL(parser, "-1 ^ 2") as Extract<Expr, { kind: "unary" }>
    expect(tree).toMatchObject({ kind: "unary", op: "-", expr: { kind: "binary", op: "^" } })
    same("- 1 ^ 2", "-1 ^ 2")
    same("2 * -1 ^ 2", "2 * (-(1 ^ 2))")
    same("-1 ^ 2 * 3", "(-(1 ^ 2)) * 3")
    same("(-1) ^ 2", "(-1) ^ 2")
    // A sign binds as tight as `*`: looser than `^`, also after a modifier.
    same("a > -b offset 1m ^ 2", "a > (-((b offset 1m) ^ 2))")
    same("-a * b", "(-a) * b")
    same("-a ^ b", "-(a ^ b)")
    same("a ^ -b ^ c", "a ^ (-(b ^ c))")
  })

  it("refuses bool on an operator that is not a comparison", () => {
    expect(() => parsePromQL(parser, "a + bool b")).toThrow(
      "bool modifier can only be used on comparison operators"
    )
    expect(() => parsePromQL(parser, "1 ^ bool 2")).toThrow("bool modifier")
    expect(grouping("a > bool b")).toMatchObject({ kind: "binary", op: ">", bool: true })
  })

  // Prometheus 2.42's own checks are compared with it in apiAgainstPrometheus.test.ts;
  // these are Prometheus 3's functions, which 2.42 does not know, checked by their
  // signatures in Prometheus 3's function table.
  it("checks Prometheus 3's functions by their signatures", () => {
    expect(() => parsePromQL(parser, "info(up, up, up)")).toThrow(
      'expected at most 2 argument(s) in call to "info", got 3'
    )
    expect(() => parsePromQL(parser, "sort_by_label(up, 1)")).toThrow(
      'expected type string in call to function "sort_by_label", got scalar'
    )
    expect(() => parsePromQL(parser, "ts_of_max_over_time(up)")).toThrow(
      'expected type range vector in call to function "ts_of_max_over_time", got instant vector'
    )
    expect(() => parsePromQL(parser, 'limitk("2", up)')).toThrow(
      "expected type scalar in aggregation parameter, got string"
    )
    expect(() => parsePromQL(parser, "first_over_time(up[5m], 1)")).toThrow(
      'expected 1 argument(s) in call to "first_over_time", got 2'
    )
    // Any number of labels to sort by, and info's selector may be left out.
    for (const valid of [
      'sort_by_label_desc(up, "a", "b", "c")',
      "info(up)",
      "mad_over_time(up[5m])",
      "limit_ratio(0.5, up)"
    ])
      expect(() => parsePromQL(parser, valid)).not.toThrow()
  })
})
