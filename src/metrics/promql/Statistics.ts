/** Prometheus's own numeric helpers: quantile by linear interpolation, linear regression. */

/**
 * Linear interpolation between the closest ranks, over Go's `sort.Float64s` order (NaNs
 * first). A typed array's own sort (NaNs last) instead of a comparator: measured, the
 * comparator sort was most of `quantile_over_time` over hour-long windows.
 */
export const quantile = (q: number, values: ArrayLike<number>): number => {
  if (values.length === 0 || Number.isNaN(q)) return NaN
  if (q < 0) return -Infinity
  if (q > 1) return Infinity
  const sorted = Float64Array.from(values).sort()
  let nans = 0
  while (nans < sorted.length && Number.isNaN(sorted[sorted.length - 1 - nans]!)) nans++
  const at = (rank: number) => (rank < nans ? NaN : sorted[rank - nans]!)
  const rank = q * (sorted.length - 1)
  const lower = Math.max(0, Math.floor(rank))
  const upper = Math.min(sorted.length - 1, lower + 1)
  const weight = rank - Math.floor(rank)
  return at(lower) * (1 - weight) + at(upper) * weight
}

/** Slope per second and intercept at `interceptTime` (ms) of the least-squares line. */
export const linearRegression = (
  times: Float64Array,
  values: Float64Array,
  lo: number,
  hi: number,
  interceptTime: number
): { slope: number; intercept: number } => {
  let n = 0
  let sumX = 0
  let sumY = 0
  let sumXY = 0
  let sumX2 = 0
  let constY = true
  const initY = values[lo]!
  for (let i = lo; i < hi; i++) {
    const y = values[i]!
    if (constY && i > lo && y !== initY) constY = false
    n++
    const x = (times[i]! - interceptTime) / 1000
    sumX += x
    sumY += y
    sumXY += x * y
    sumX2 += x * x
  }
  if (constY) {
    if (!Number.isFinite(initY)) return { slope: NaN, intercept: NaN }
    return { slope: 0, intercept: initY }
  }
  const covXY = sumXY - (sumX * sumY) / n
  const varX = sumX2 - (sumX * sumX) / n
  const slope = covXY / varX
  return { slope, intercept: sumY / n - (slope * sumX) / n }
}

/** Population variance, with Prometheus's running mean. */
export const variance = (values: ArrayLike<number>, lo: number, hi: number): number => {
  let count = 0
  let mean = 0
  let aux = 0
  for (let i = lo; i < hi; i++) {
    const v = values[i]!
    count++
    const delta = v - mean
    mean += delta / count
    aux += delta * (v - mean)
  }
  return aux / count
}
