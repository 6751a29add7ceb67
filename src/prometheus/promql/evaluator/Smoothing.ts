/**
 * Range functions of Prometheus 3 beyond 2.x's set: `mad_over_time` (the median absolute
 * deviation) and `double_exponential_smoothing` (2.x's `holt_winters`, renamed), both as
 * Prometheus computes them.
 */
import { quantile } from "./Statistics.js"
import { EvaluationError } from "./Values.js"

/** The samples `lo..hi-1` of a window (RangeFunctions.ts `Window`). */
interface Window {
  readonly values: Float64Array
  readonly lo: number
  readonly hi: number
}

export const madOverTime = (w: Window): number | undefined => {
  if (w.hi <= w.lo) return undefined
  const values = Array.from(w.values.subarray(w.lo, w.hi))
  const median = quantile(0.5, values)
  return quantile(
    0.5,
    values.map((v) => Math.abs(v - median))
  )
}

const factor = (what: string, value: number) => {
  if (!(value > 0 && value < 1))
    throw new EvaluationError(
      `invalid ${what} factor. Expected: 0 < ${what === "smoothing" ? "sf" : "tf"} < 1, got: ${value}`
    )
}

/**
 * Level s and trend b from the first two samples, then for each later sample
 * s' = sf·x + (1 − sf)(s + b), the trend first updated to tf(s − s_prev) + (1 − tf)·b
 * (from the second step on); the answer is the last level. Fewer than two samples: none.
 */
export const doubleExponentialSmoothing = (
  w: Window,
  sf: number,
  tf: number
): number | undefined => {
  factor("smoothing", sf)
  factor("trend", tf)
  const { values, lo, hi } = w
  if (hi - lo < 2) return undefined
  let previous = 0
  let level = values[lo]!
  let trend = values[lo + 1]! - values[lo]!
  for (let i = lo + 1; i < hi; i++) {
    if (i - 1 > lo) trend = tf * (level - previous) + (1 - tf) * trend
    const next = sf * values[i]! + (1 - sf) * (level + trend)
    previous = level
    level = next
  }
  return level
}
