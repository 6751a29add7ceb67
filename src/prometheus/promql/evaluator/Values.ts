/**
 * What evaluation works on: every node is evaluated at all steps of its range at once.
 * A vector is series with one slot per step (`undefined`, or a hole that reads as it: no
 * sample at that step). Builders leave empty steps as holes: an array of numbers and
 * holes keeps its numbers unboxed, where one filled with `undefined` holds each number
 * as an object of its own (one for every step of every series, all alive until the
 * answer is made, which made the young generation's collections much slower).
 * `forEach`, `some` and `map` skip holes, which every reader here takes as no value.
 */
import type { Labels } from "../../SeriesLabels.js"
import { labelSet } from "../../SeriesLabels.js"

export interface StepSeries {
  readonly labels: Labels
  readonly values: Array<number | undefined>
}

export type Value =
  | { readonly kind: "scalar"; readonly values: ReadonlyArray<number> }
  | { readonly kind: "vector"; readonly series: ReadonlyArray<StepSeries> }
  | { readonly kind: "string"; readonly value: string }

/** Samples of one series read from storage (or a subquery), in time order. */
export interface RawSeries {
  readonly labels: Labels
  readonly times: Float64Array
  readonly values: Float64Array
  /** 1 where the sample is a stale marker. */
  readonly stale: Uint8Array
}

/** A failure Prometheus reports as `execution` (or `bad_data` for `badData`). */
export class EvaluationError extends Error {
  constructor(
    message: string,
    readonly badData = false
  ) {
    super(message)
  }
}

// Label sets are never changed once made, and one set is keyed at every step of every
// node (VectorBuilder, sorting): building the key was a good part of a big query's time
// before it was remembered per object.
const keys = new WeakMap<Labels, string>()

export const labelsKey = (labels: Labels): string => {
  const known = keys.get(labels)
  if (known !== undefined) return known
  const names = Object.keys(labels).sort()
  let key = ""
  for (const name of names) key += `${name}\u0000${labels[name]}\u0001`
  keys.set(labels, key)
  return key
}

// A series' set without its name, remembered per set like its key: a series' sets come
// from the kept labels of its reads (KnownLabels.ts), so every query over it, and every
// node of one, meets the same set and its already-built key (in `rate(x[5m])` of a
// compliance round, keying a fresh copy for each series was ~2 % of the server's time).
const unnamed = new WeakMap<Labels, Labels>()

export const withoutName = (labels: Labels): Labels => {
  if (!("__name__" in labels)) return labels
  let rest = unnamed.get(labels)
  if (rest === undefined) {
    const { __name__: _, ...copy } = labels
    rest = copy
    unnamed.set(labels, rest)
  }
  return rest
}

/**
 * The labels `by`/`on` name (`keep`), or all but those and the metric name
 * (`without`/`ignoring`): how aggregations group series and vector matching matches them.
 */
export const groupingLabels = (
  labels: Labels,
  names: ReadonlySet<string>,
  keep: boolean
): Labels => {
  const group = labelSet()
  for (const [name, value] of Object.entries(labels))
    if (keep ? names.has(name) : !names.has(name) && name !== "__name__") group[name] = value
  return group
}

/** `{a="1", b="2"}`, as Prometheus prints label sets in errors. */
export const showLabels = (labels: Labels) =>
  `{${Object.keys(labels)
    .sort()
    .map((name) => `${name}="${labels[name]}"`)
    .join(", ")}}`

/**
 * Builds a vector from samples produced step by step; two samples of the same label set
 * at one step is Prometheus's duplicate-labelset error.
 */
export class VectorBuilder {
  private readonly byKey = new Map<string, StepSeries>()
  constructor(private readonly steps: number) {}

  add(labels: Labels, step: number, value: number) {
    VectorBuilder.set(this.slots(labels), step, value)
  }

  /** The step values of `labels`' series, made now if it has none yet. */
  slots(labels: Labels): Array<number | undefined> {
    const key = labelsKey(labels)
    let series = this.byKey.get(key)
    if (series === undefined) {
      series = { labels, values: new Array<number | undefined>(this.steps) }
      this.byKey.set(key, series)
    }
    return series.values
  }

  /** A series' values by step, added whole (as `add` at each step would). */
  put(labels: Labels, values: Array<number | undefined>) {
    const key = labelsKey(labels)
    const series = this.byKey.get(key)
    if (series === undefined) this.byKey.set(key, { labels, values })
    else
      values.forEach((value, step) => {
        if (value !== undefined) VectorBuilder.set(series.values, step, value)
      })
  }

  /** `add` into slots already looked up: the series is looked up once, not at every step. */
  static set(slots: Array<number | undefined>, step: number, value: number) {
    if (slots[step] !== undefined)
      throw new EvaluationError("vector cannot contain metrics with the same labelset")
    slots[step] = value
  }

  vector(): Value {
    return { kind: "vector", series: [...this.byKey.values()] }
  }
}

export const scalarAt = (value: Value, step: number): number => {
  if (value.kind !== "scalar") throw new EvaluationError("expected a scalar", true)
  return value.values[step]!
}
