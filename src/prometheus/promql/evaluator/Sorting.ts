/**
 * The ordering functions. Only an instant query's answer has an order (a range query's
 * series come out by labels), so they reorder the series of a one-step evaluation:
 * `sort`/`sort_desc` by value, NaN last; `sort_by_label[_desc]` by the named labels in
 * natural order (digit runs compared as numbers), ties by the whole label set, as
 * Prometheus 3 orders them. All keep the metric name.
 */
import { labelOf } from "../../SeriesLabels.js"
import type { Labels } from "../../SeriesLabels.js"
import type { StepSeries, Value } from "./Values.js"
import { EvaluationError } from "./Values.js"

const chunks = (text: string) => text.match(/\d+|\D+/g) ?? []

/** Whether `a` sorts before `b` in natural order (facette/natsort, which Prometheus uses). */
export const naturalLess = (a: string, b: string): boolean => {
  const left = chunks(a)
  const right = chunks(b)
  for (let i = 0; i < left.length; i++) {
    if (i >= right.length) return false
    const x = left[i]!
    const y = right[i]!
    const numeric = /^\d+$/.test(x) && /^\d+$/.test(y)
    const same = numeric ? BigInt(x) === BigInt(y) : x === y
    if (same) {
      if (i === left.length - 1) return true
      if (i === right.length - 1) return false
      continue
    }
    return numeric ? BigInt(x) < BigInt(y) : x < y
  }
  return false
}

/** Prometheus's `labels.Compare`: names then values pairwise, in name order. */
export const compareLabels = (a: Labels, b: Labels): number => {
  const an = Object.keys(a).sort()
  const bn = Object.keys(b).sort()
  for (let i = 0; i < Math.min(an.length, bn.length); i++) {
    if (an[i] !== bn[i]) return an[i]! < bn[i]! ? -1 : 1
    const av = a[an[i]!]!
    const bv = b[bn[i]!]!
    if (av !== bv) return av < bv ? -1 : 1
  }
  return an.length - bn.length
}

const vectorOf = (value: Value | undefined, fn: string) => {
  if (value?.kind !== "vector")
    throw new EvaluationError(`expected type instant vector in call to function "${fn}"`, true)
  return value
}

export const sortByValue = (
  value: Value | undefined,
  descending: boolean,
  steps: number
): Value => {
  const vector = vectorOf(value, descending ? "sort_desc" : "sort")
  if (steps !== 1) return vector
  const rank = (s: StepSeries) => s.values[0] ?? NaN
  const series = [...vector.series].sort((a, b) => {
    const x = rank(a)
    const y = rank(b)
    if (Number.isNaN(x) || Number.isNaN(y)) return Number.isNaN(x) ? (Number.isNaN(y) ? 0 : 1) : -1
    return descending ? y - x : x - y
  })
  return { kind: "vector", series }
}

export const sortByLabel = (args: ReadonlyArray<Value>, descending: boolean): Value => {
  const fn = descending ? "sort_by_label_desc" : "sort_by_label"
  const vector = vectorOf(args[0], fn)
  const names = args.slice(1).map((arg) => {
    if (arg.kind !== "string")
      throw new EvaluationError(`expected type string in call to function "${fn}"`, true)
    return arg.value
  })
  const ascending = (a: StepSeries, b: StepSeries) => {
    for (const name of names) {
      const x = labelOf(a.labels, name) ?? ""
      const y = labelOf(b.labels, name) ?? ""
      if (x === y) continue
      return naturalLess(x, y) ? -1 : 1
    }
    return compareLabels(a.labels, b.labels)
  }
  const series = [...vector.series].sort((a, b) =>
    descending ? -ascending(a, b) : ascending(a, b)
  )
  return { kind: "vector", series }
}
