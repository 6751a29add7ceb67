/**
 * The range functions that keep something of a series between its windows (a counter's
 * resets, a sliding extreme) answer each window as Prometheus's loop over the window
 * does, to the bit: checked against that loop written here from Prometheus's Go code
 * (promql/functions.go, `extrapolatedRate` and `aggrOverTime`), over series with resets,
 * NaNs, infinities and signed zeros, on windows that move forward, stand still, jump and
 * go back.
 */
import { describe, expect, it } from "vitest"
import type { Window } from "../../src/prometheus/promql/evaluator/RangeFunctions.js"
import { rangeFunctionFor } from "../../src/prometheus/promql/evaluator/RangeFunctions.js"

/** Prometheus's `extrapolatedRate`, every sample of the window compared for resets. */
const prometheusRate =
  (isCounter: boolean, isRate: boolean) =>
  ({ times, values, lo, hi, end, range }: Window) => {
    if (hi - lo < 2) return undefined
    let result = values[hi - 1]! - values[lo]!
    if (isCounter) {
      let previous = values[lo]!
      for (let i = lo + 1; i < hi; i++) {
        if (values[i]! < previous) result += previous
        previous = values[i]!
      }
    }
    let durationToStart = (times[lo]! - (end - range)) / 1000
    const durationToEnd = (end - times[hi - 1]!) / 1000
    const sampled = (times[hi - 1]! - times[lo]!) / 1000
    const average = sampled / (hi - lo - 1)
    if (isCounter && result > 0 && values[lo]! >= 0) {
      const durationToZero = sampled * (values[lo]! / result)
      if (durationToZero < durationToStart) durationToStart = durationToZero
    }
    let interval = sampled
    interval += durationToStart < average * 1.1 ? durationToStart : average / 2
    interval += durationToEnd < average * 1.1 ? durationToEnd : average / 2
    let factor = interval / sampled
    if (isRate) factor /= Math.trunc(range / 1000) + (range % 1000) / 1000
    return result * factor
  }

/** Prometheus's `max_over_time`/`min_over_time` loop. */
const prometheusExtreme =
  (max: boolean) =>
  ({ values, lo, hi }: Window) => {
    if (hi <= lo) return undefined
    let current = values[lo]!
    for (let i = lo + 1; i < hi; i++) {
      const v = values[i]!
      if ((max ? v > current : v < current) || Number.isNaN(current)) current = v
    }
    return current
  }

const REFERENCES = {
  rate: prometheusRate(true, true),
  increase: prometheusRate(true, false),
  delta: prometheusRate(false, false),
  max_over_time: prometheusExtreme(true),
  min_over_time: prometheusExtreme(false)
}

/** A small deterministic generator (mulberry32), so a failure repeats. */
const random = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296
}

const SPECIAL = [NaN, Infinity, -Infinity, 0, -0, 5, 5]

const seriesOf = (next: () => number, length: number, odd: boolean) => {
  const times = new Float64Array(length)
  const values = new Float64Array(length)
  let value = 0
  for (let i = 0; i < length; i++) {
    times[i] = 1_000_000 + i * 15_000 + Math.floor(next() * 14_000)
    const roll = next()
    // Counters rise and sometimes restart; the odd series also holds NaNs, infinities, ±0.
    if (odd && roll < 0.15) value = SPECIAL[Math.floor(next() * SPECIAL.length)]!
    else if (roll < 0.22) value = Math.floor(next() * 3)
    else value = (Number.isFinite(value) ? value : 0) + next() * 10
    values[i] = value
  }
  return { times, values }
}

/** Window ends: mostly forward by a step, sometimes standing, jumping or going back. */
const endsOf = (next: () => number, first: number, count: number, step: number) => {
  const ends: Array<number> = []
  let end = first
  for (let i = 0; i < count; i++) {
    const roll = next()
    if (roll < 0.05) end -= Math.floor(next() * 20) * step
    else if (roll < 0.1) end += Math.floor(next() * 20) * step
    else if (roll > 0.15) end += step
    ends.push(end + 0.123)
  }
  return ends
}

describe("range functions kept per series", () => {
  for (const [name, reference] of Object.entries(REFERENCES))
    it(`${name} answers every window as Prometheus's loop over it`, () => {
      let compared = 0
      for (let seed = 1; seed <= 40; seed++) {
        const next = random(seed)
        const { times, values } = seriesOf(next, 400, seed % 2 === 1)
        const range = [60_000, 300_000, 1_800_000, 3_600_000][seed % 4]!
        const fn = rangeFunctionFor(name)!()
        for (const end of endsOf(next, 900_000, 600, 30_000 + (seed % 5) * 45_000)) {
          let lo = 0
          while (lo < times.length && times[lo]! <= end - range) lo++
          let hi = lo
          while (hi < times.length && times[hi]! <= end) hi++
          const window = { times, values, lo, hi, end, range, stepTime: end }
          const expected = reference(window)
          const actual = fn(window, 0, 0)
          if (expected === undefined) expect(actual).toBeUndefined()
          else expect(Object.is(actual, expected), `${name} seed ${seed} end ${end}`).toBe(true)
          compared++
        }
      }
      expect(compared).toBe(40 * 600)
    })
})
