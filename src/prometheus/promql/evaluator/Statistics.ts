/** Prometheus's own numeric helpers: quantile by linear interpolation, linear regression. */

/**
 * Linear interpolation between the closest ranks of `count` values in Go's
 * `sort.Float64s` order (NaNs first): `nans` NaNs, then `sorted`'s first values ascending.
 */
const ranked = (q: number, sorted: Float64Array, count: number, nans: number): number => {
  if (count === 0 || Number.isNaN(q)) return NaN
  if (q < 0) return -Infinity
  if (q > 1) return Infinity
  const at = (rank: number) => (rank < nans ? NaN : sorted[rank - nans]!)
  const rank = q * (count - 1)
  const lower = Math.max(0, Math.floor(rank))
  const upper = Math.min(count - 1, lower + 1)
  const weight = rank - Math.floor(rank)
  return at(lower) * (1 - weight) + at(upper) * weight
}

/**
 * The quantile of `values`. A typed array's own sort (NaNs last) instead of a comparator:
 * the comparator sort was most of `quantile_over_time` over hour-long windows.
 */
export const quantile = (q: number, values: ArrayLike<number>): number => {
  const sorted = Float64Array.from(values).sort()
  let nans = 0
  while (nans < sorted.length && Number.isNaN(sorted[sorted.length - 1 - nans]!)) nans++
  return ranked(q, sorted, sorted.length, nans)
}

/**
 * `quantile` of a window that slides forward over one series' values, step after step:
 * the values it holds stay sorted, and each step only takes out what left the window and
 * puts in what entered (a hour-long window at a 10 s step changes by two values of 720;
 * sorting it again at every step was most of `quantile_over_time`'s time).
 */
export class SlidingQuantile {
  private sorted = new Float64Array(64)
  private size = 0
  private nans = 0
  private lo = 0
  private hi = 0

  quantile(q: number, values: Float64Array, lo: number, hi: number): number {
    const moves = lo - this.lo + (hi - this.hi)
    if (lo < this.lo || hi < this.hi || lo >= this.hi || moves * 8 > hi - lo)
      this.fill(values, lo, hi)
    else {
      for (let i = this.lo; i < lo; i++) this.remove(values[i]!)
      for (let i = this.hi; i < hi; i++) this.insert(values[i]!)
      this.lo = lo
      this.hi = hi
    }
    return ranked(q, this.sorted, this.size + this.nans, this.nans)
  }

  private fill(values: Float64Array, lo: number, hi: number) {
    if (this.sorted.length < hi - lo) this.sorted = new Float64Array(hi - lo)
    this.size = 0
    this.nans = 0
    for (let i = lo; i < hi; i++) {
      const v = values[i]!
      if (Number.isNaN(v)) this.nans++
      else this.sorted[this.size++] = v
    }
    this.sorted.subarray(0, this.size).sort()
    this.lo = lo
    this.hi = hi
  }

  /** The first index whose value is not below `v`. */
  private lowerBound(v: number) {
    let low = 0
    let high = this.size
    while (low < high) {
      const middle = (low + high) >>> 1
      if (this.sorted[middle]! < v) low = middle + 1
      else high = middle
    }
    return low
  }

  private insert(v: number) {
    if (Number.isNaN(v)) {
      this.nans++
      return
    }
    if (this.size === this.sorted.length) {
      const larger = new Float64Array(this.sorted.length * 2)
      larger.set(this.sorted)
      this.sorted = larger
    }
    const at = this.lowerBound(v)
    this.sorted.copyWithin(at + 1, at, this.size)
    this.sorted[at] = v
    this.size++
  }

  private remove(v: number) {
    if (Number.isNaN(v)) {
      this.nans--
      return
    }
    const at = this.lowerBound(v)
    this.sorted.copyWithin(at, at + 1, this.size)
    this.size--
  }
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
