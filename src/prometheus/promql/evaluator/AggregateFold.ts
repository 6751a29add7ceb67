/**
 * The aggregations that fold a group's values one by one (`sum`, `avg`, `count`, `group`,
 * `min`, `max`): every step in one pass over the series, each group's running value in a
 * typed array, no map or member objects made per step (the per-step groups and their
 * garbage were most of the aggregation's time). Each fold takes the values in series
 * order with the same operations as the reducers in Aggregate.ts, so every answer is the
 * same to the bit.
 */
import type { Labels } from "../../SeriesLabels.js"
import type { StepSeries, Value } from "./Values.js"

export interface Fold {
  /** The state after a group's first value. */
  readonly first: (v: number) => number
  /** The state after one more value, the `count`th (from 2). */
  readonly next: (state: number, v: number, count: number) => number
  /** The answer from the state and the number of values. */
  readonly result: (state: number, count: number) => number
}

const same = (state: number) => state

const extreme = (better: (a: number, b: number) => boolean): Fold => ({
  first: (v) => v,
  next: (current, v) => (better(v, current) || Number.isNaN(current) ? v : current),
  result: same
})

export const FOLDS: Readonly<Record<string, Fold>> = {
  sum: { first: (v) => 0 + v, next: (sum, v) => sum + v, result: same },
  avg: {
    // Aggregate.ts's `mean`, one value at a time.
    first: (v) => 0 + (v / 1 - 0 / 1),
    next: (m, v, count) => {
      if (m === Infinity || m === -Infinity) {
        if ((v === Infinity || v === -Infinity) && m > 0 === v > 0) return m
        if (Number.isFinite(v)) return m
      }
      return m + (v / count - m / count)
    },
    result: same
  },
  count: { first: () => 0, next: same, result: (_, count) => count },
  group: { first: () => 1, next: same, result: () => 1 },
  min: extreme((a, b) => a < b),
  max: extreme((a, b) => a > b)
}

/**
 * One output series per group, made at the first step that has a value for it (the
 * order `VectorBuilder` gives the general path).
 */
export const foldGroups = (
  grouped: ReadonlyArray<{ series: StepSeries; labels: Labels; key: string }>,
  steps: number,
  fold: Fold
): Value => {
  const index = new Map<string, number>()
  const groupOf = new Int32Array(grouped.length)
  const labelsOf: Array<Labels> = []
  grouped.forEach(({ labels, key }, i) => {
    let g = index.get(key)
    if (g === undefined) index.set(key, (g = labelsOf.push(labels) - 1))
    groupOf[i] = g
  })
  const state = new Float64Array(labelsOf.length)
  const counts = new Float64Array(labelsOf.length)
  const outputs: Array<Array<number | undefined> | undefined> = labelsOf.map(() => undefined)
  const series: Array<StepSeries> = []
  const touched: Array<number> = []
  for (let step = 0; step < steps; step++) {
    for (let i = 0; i < grouped.length; i++) {
      const v = grouped[i]!.series.values[step]
      if (v === undefined) continue
      const g = groupOf[i]!
      const count = ++counts[g]!
      if (count === 1) {
        state[g] = fold.first(v)
        touched.push(g)
        if (outputs[g] === undefined) {
          const values = new Array<number | undefined>(steps)
          outputs[g] = values
          series.push({ labels: labelsOf[g]!, values })
        }
      } else state[g] = fold.next(state[g]!, v, count)
    }
    for (const g of touched) {
      outputs[g]![step] = fold.result(state[g]!, counts[g]!)
      counts[g] = 0
    }
    touched.length = 0
  }
  return { kind: "vector", series }
}
