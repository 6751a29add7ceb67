/**
 * `quantile_over_time`'s sliding window answers what sorting each window afresh answers:
 * windows that move forward by a little or a lot, shrink, jump, or stay put, over values
 * with NaNs, infinities and repeats.
 */
import { describe, expect, it } from "@effect/vitest"
import { quantile, SlidingQuantile } from "../../src/prometheus/promql/evaluator/Statistics.js"

const series = (length: number, seed: number) => {
  const values = new Float64Array(length)
  for (let i = 0; i < length; i++) {
    seed = (seed * 1103515245 + 12345) >>> 0
    const r = seed / 2 ** 32
    values[i] =
      r < 0.05
        ? NaN
        : r < 0.08
          ? Infinity
          : r < 0.1
            ? -Infinity
            : r < 0.3
              ? 7
              : Math.round(r * 1000) / 10
  }
  return values
}

const same = (a: number, b: number) => (Number.isNaN(a) ? Number.isNaN(b) : a === b)

describe("SlidingQuantile", () => {
  it("answers as a fresh sort of each window does, however the window moves", () => {
    const values = series(2_000, 42)
    for (const q of [0, 0.1, 0.5, 0.9, 0.99, 1, -1, 2, NaN]) {
      const sliding = new SlidingQuantile()
      let lo = 0
      let hi = 1
      let seed = 7
      for (let step = 0; step < 600; step++) {
        seed = (seed * 1103515245 + 12345) >>> 0
        const move = seed % 23
        // Mostly small steps forward (a long window at a short step), sometimes a jump.
        if (move === 0) lo = Math.min(hi, lo + 200)
        else if (move < 12) lo += move % 3
        hi = Math.min(values.length, Math.max(hi + (move % 4), lo + 1))
        lo = Math.min(lo, hi - 1)
        const want = quantile(q, values.subarray(lo, hi))
        const got = sliding.quantile(q, values, lo, hi)
        expect(same(got, want), `q=${q} window ${lo}..${hi}: ${got} vs ${want}`).toBe(true)
      }
    }
  })
})
