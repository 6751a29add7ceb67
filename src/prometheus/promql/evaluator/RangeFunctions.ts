/**
 * Functions of a range vector, one window at a time: the samples `lo..hi-1` of a series
 * (stale markers already left out) inside `(t - range, t]`. `undefined`: no output.
 */
import { doubleExponentialSmoothing, madOverTime } from "./Smoothing.js"
import { linearRegression, SlidingQuantile, variance } from "./Statistics.js"

export interface Window {
  readonly times: Float64Array
  readonly values: Float64Array
  readonly lo: number
  readonly hi: number
  /** The window's end (step time after offset/@) and length, in ms. */
  readonly end: number
  readonly range: number
  /** The step's own time, for `predict_linear`. */
  readonly stepTime: number
}

export type RangeFunction = (w: Window, param: number, second: number) => number | undefined

/**
 * The indices `i` of `values` where `values[i] < values[i - 1]`: a counter's resets, in
 * order. A window's reset correction adds `values[i - 1]` for each of its resets, as
 * Prometheus does, in the same order: found here once per series instead of comparing
 * every sample of every window (a 1-hour window at 2-minute steps holds each sample 30
 * times).
 */
const resetsOf = (values: Float64Array): ReadonlyArray<number> => {
  const out: Array<number> = []
  let previous = values[0]!
  for (let i = 1; i < values.length; i++) {
    const value = values[i]!
    if (value < previous) out.push(i)
    previous = value
  }
  return out
}

/** The first position in `sorted` whose index is at least `index`. */
const firstAtLeast = (sorted: ReadonlyArray<number>, index: number) => {
  let lo = 0
  let hi = sorted.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (sorted[mid]! < index) lo = mid + 1
    else hi = mid
  }
  return lo
}

/**
 * Prometheus's extrapolated rate/increase/delta, for one series' windows: a counter's
 * resets are found once for the series (`resetsOf`).
 */
const extrapolated = (isCounter: boolean, isRate: boolean) => (): RangeFunction => {
  let resetsFor: Float64Array | undefined
  let resets: ReadonlyArray<number> = []
  return ({ times, values, lo, hi, end, range }) => {
    if (hi - lo < 2) return undefined
    const first = values[lo]!
    const last = values[hi - 1]!
    let result = last - first
    if (isCounter) {
      if (resetsFor !== values) {
        resetsFor = values
        resets = resetsOf(values)
      }
      if (resets.length > 0)
        for (let r = firstAtLeast(resets, lo + 1); r < resets.length && resets[r]! < hi; r++)
          result += values[resets[r]! - 1]!
    }
    const rangeStart = end - range
    let durationToStart = (times[lo]! - rangeStart) / 1000
    const durationToEnd = (end - times[hi - 1]!) / 1000
    const sampled = (times[hi - 1]! - times[lo]!) / 1000
    const average = sampled / (hi - lo - 1)
    if (isCounter && result > 0 && first >= 0) {
      const durationToZero = sampled * (first / result)
      if (durationToZero < durationToStart) durationToStart = durationToZero
    }
    const threshold = average * 1.1
    let interval = sampled
    interval += durationToStart < threshold ? durationToStart : average / 2
    interval += durationToEnd < threshold ? durationToEnd : average / 2
    // Prometheus's order of operations, to the last bit: a quantile on a bucket boundary
    // picks its bucket by comparing rates, and `r * (a / b) / c` can differ from
    // `r * ((a / b) / c)` in the last place.
    let factor = interval / sampled
    if (isRate) factor /= rangeSeconds(range)
    return result * factor
  }
}

/** Go's `time.Duration.Seconds()` of a range in milliseconds: whole seconds plus the rest. */
const rangeSeconds = (range: number) => Math.trunc(range / 1000) + (range % 1000) / 1000

const instant =
  (isRate: boolean): RangeFunction =>
  ({ times, values, hi, lo }) => {
    if (hi - lo < 2) return undefined
    const last = values[hi - 1]!
    const previous = values[hi - 2]!
    const delta = isRate && last < previous ? last : last - previous
    if (!isRate) return delta
    const seconds = (times[hi - 1]! - times[hi - 2]!) / 1000
    return seconds === 0 ? undefined : delta / seconds
  }

const fold =
  (reduce: (values: Float64Array, lo: number, hi: number) => number): RangeFunction =>
  ({ values, lo, hi }) =>
    hi > lo ? reduce(values, lo, hi) : undefined

const sum = (values: Float64Array, lo: number, hi: number) => {
  let total = 0
  for (let i = lo; i < hi; i++) total += values[i]!
  return total
}

/**
 * `max_over_time`/`min_over_time` for one series' windows: the value the fold
 * `current = v if better(v, current) or current is NaN` ends with, from `lo` on. That is
 * the first non-NaN value no later one beats (equal ones, ±0 included, keep the first),
 * or the window's last value when all are NaN. Kept as a monotonic queue of the
 * non-NaN indices no later one beats, so each sample is pushed and popped once while the
 * windows move forward, where the fold read each 30-minute window whole at every step.
 */
const slidingExtreme =
  (better: (candidate: number, current: number) => boolean) => (): RangeFunction => {
    let queue = new Int32Array(0)
    let head = 0
    let tail = 0
    let pushed = 0
    let start = 0
    let of: Float64Array | undefined
    return ({ values, lo, hi }) => {
      if (hi <= lo) return undefined
      if (of !== values || lo < start || hi < pushed) {
        if (queue.length < values.length) queue = new Int32Array(values.length)
        of = values
        head = tail = 0
        pushed = lo
      }
      start = lo
      for (; pushed < hi; pushed++) {
        const v = values[pushed]!
        if (Number.isNaN(v)) continue
        while (tail > head && better(v, values[queue[tail - 1]!]!)) tail--
        queue[tail++] = pushed
      }
      while (tail > head && queue[head]! < lo) head++
      return tail > head ? values[queue[head]!]! : values[hi - 1]!
    }
  }

/**
 * The time, in seconds, of the sample a fold keeping `v` when `better(v, current)` or
 * `current` is NaN picks.
 */
const timeOfExtreme =
  (better: (candidate: number, current: number) => boolean): RangeFunction =>
  ({ times, values, lo, hi }) => {
    if (hi <= lo) return undefined
    let current = values[lo]!
    let at = times[lo]!
    for (let i = lo + 1; i < hi; i++) {
      const v = values[i]!
      if (better(v, current) || Number.isNaN(current)) {
        current = v
        at = times[i]!
      }
    }
    return at / 1000
  }

/** Functions that keep something of one series between its windows: made per series. */
const PER_SERIES: Readonly<Record<string, () => RangeFunction>> = {
  rate: extrapolated(true, true),
  increase: extrapolated(true, false),
  delta: extrapolated(false, false),
  min_over_time: slidingExtreme((a, b) => a < b),
  max_over_time: slidingExtreme((a, b) => a > b)
}

const RANGE: Readonly<Record<string, RangeFunction>> = {
  irate: instant(true),
  idelta: instant(false),
  deriv: (w) =>
    w.hi - w.lo < 2
      ? undefined
      : linearRegression(w.times, w.values, w.lo, w.hi, w.times[w.lo]!).slope,
  predict_linear: (w, seconds) => {
    if (w.hi - w.lo < 2) return undefined
    const { slope, intercept } = linearRegression(w.times, w.values, w.lo, w.hi, w.stepTime)
    return intercept + slope * seconds
  },
  changes: fold((values, lo, hi) => {
    let changes = 0
    for (let i = lo + 1; i < hi; i++) {
      const a = values[i - 1]!
      const b = values[i]!
      if (!(a === b || (Number.isNaN(a) && Number.isNaN(b)))) changes++
    }
    return changes
  }),
  resets: fold((values, lo, hi) => {
    let resets = 0
    for (let i = lo + 1; i < hi; i++) if (values[i]! < values[i - 1]!) resets++
    return resets
  }),
  sum_over_time: fold(sum),
  avg_over_time: fold((values, lo, hi) => {
    let mean = 0
    let count = 0
    for (let i = lo; i < hi; i++) {
      count++
      const v = values[i]!
      if (mean === Infinity || mean === -Infinity) {
        // Once infinite, only an infinity of the other sign or a NaN changes the mean.
        if ((v === Infinity || v === -Infinity) && mean > 0 === v > 0) continue
        if (Number.isFinite(v)) continue
      }
      mean += v / count - mean / count
    }
    return mean
  }),
  count_over_time: fold((_, lo, hi) => hi - lo),
  last_over_time: fold((values, _, hi) => values[hi - 1]!),
  first_over_time: fold((values, lo) => values[lo]!),
  ts_of_first_over_time: ({ times, lo, hi }) => (hi > lo ? times[lo]! / 1000 : undefined),
  ts_of_last_over_time: ({ times, lo, hi }) => (hi > lo ? times[hi - 1]! / 1000 : undefined),
  // `>=` and `<=`: the last time the extreme was reached, where max/min_over_time keep the first.
  ts_of_max_over_time: timeOfExtreme((a, b) => a >= b),
  ts_of_min_over_time: timeOfExtreme((a, b) => a <= b),
  present_over_time: fold(() => 1),
  stdvar_over_time: fold(variance),
  stddev_over_time: fold((values, lo, hi) => Math.sqrt(variance(values, lo, hi))),
  mad_over_time: madOverTime,
  double_exponential_smoothing: doubleExponentialSmoothing
}

/**
 * The range function `name` for one series, called for its steps in order: the same
 * function for every series, but for `quantile_over_time`, whose sorted window slides
 * with the steps (Statistics.ts), and those of `PER_SERIES`.
 */
export const rangeFunctionFor = (name: string): (() => RangeFunction) | undefined => {
  if (name === "quantile_over_time")
    return () => {
      const window = new SlidingQuantile()
      return (w, q) => (w.hi > w.lo ? window.quantile(q, w.values, w.lo, w.hi) : undefined)
    }
  const perSeries = PER_SERIES[name]
  if (perSeries !== undefined) return perSeries
  const shared = RANGE[name]
  return shared === undefined ? undefined : () => shared
}
