/**
 * Aggregations folded over all steps at once answer to the bit what Prometheus's
 * one-value-at-a-time reducers answer: a sum's order, -0, NaN first in min/max, an
 * infinite mean, and groups that first appear at a later step (listed after the others).
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { makeBudget } from "../../src/prometheus/promql/evaluator/Budget.js"
import { evaluate, queryContext } from "../../src/prometheus/promql/evaluator/Eval.js"
import type { RawSeries, Value } from "../../src/prometheus/promql/evaluator/Values.js"
import { parser } from "@prometheus-io/lezer-promql"
import { parsePromQL } from "../../src/prometheus/promql/parser/Parse.js"

const STEPS = [10_000, 20_000]

// One sample per series at each step time (undefined: none at that step).
const samples = (labels: Record<string, string>, values: ReadonlyArray<number | undefined>) => {
  const kept = STEPS.flatMap((t, i) => (values[i] === undefined ? [] : [[t, values[i]!] as const]))
  return {
    labels: { __name__: "m", ...labels },
    times: Float64Array.from(kept, ([t]) => t),
    values: Float64Array.from(kept, ([, v]) => v),
    stale: new Uint8Array(kept.length)
  } satisfies RawSeries
}

const SERIES: ReadonlyArray<RawSeries> = [
  samples({ g: "a", i: "1" }, [0.1, NaN]),
  samples({ g: "a", i: "2" }, [0.2, 5]),
  samples({ g: "a", i: "3" }, [0.3, -1]),
  samples({ g: "b", i: "1" }, [-0, Infinity]),
  samples({ g: "b", i: "2" }, [undefined, 3]),
  samples({ g: "c", i: "1" }, [undefined, 7])
]

const run = (query: string) =>
  Effect.runSync(
    evaluate(
      queryContext(STEPS[0]!, STEPS[1]!, () => Effect.succeed(SERIES), makeBudget(1_000_000)),
      parsePromQL(parser, query),
      STEPS
    )
  )

const table = (value: Value) =>
  value.kind === "vector" ? value.series.map((s) => [s.labels.g, ...s.values]) : []

describe("folded aggregations", () => {
  it("sum adds in series order from 0 (0.1 + 0.2 + 0.3 is not 0.6), -0 sums to 0", () => {
    const out = table(run("sum by (g) (m)"))
    expect(out).toEqual([
      ["a", 0.6000000000000001, NaN],
      ["b", 0, Infinity],
      ["c", undefined, 7]
    ])
    expect(Object.is(out[1]![1], 0)).toBe(true)
  })

  it("min and max take a later value over a leading NaN; a group first seen later comes last", () => {
    expect(table(run("max by (g) (m)"))).toEqual([
      ["a", 0.3, 5],
      ["b", -0, Infinity],
      ["c", undefined, 7]
    ])
    expect(table(run("min by (g) (m)"))).toEqual([
      ["a", 0.1, -1],
      ["b", -0, 3],
      ["c", undefined, 7]
    ])
  })

  it("avg keeps an infinite mean against finite values; count and group", () => {
    expect(table(run("avg by (g) (m)"))).toEqual([
      ["a", 0.2, NaN],
      ["b", 0, Infinity],
      ["c", undefined, 7]
    ])
    expect(table(run("count by (g) (m)"))).toEqual([
      ["a", 3, 3],
      ["b", 1, 2],
      ["c", undefined, 1]
    ])
    expect(table(run("group by (g) (m)"))).toEqual([
      ["a", 1, 1],
      ["b", 1, 1],
      ["c", undefined, 1]
    ])
  })
})
