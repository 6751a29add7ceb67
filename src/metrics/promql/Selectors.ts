/** Selectors and subqueries: the samples each step of a node reads. */
import { Effect } from "effect"
import type { At, Expr, Matcher, Subquery, VectorSelector } from "./Ast.js"
import type { RawSeries, StepSeries, Value } from "./Values.js"
import { EvaluationError } from "./Values.js"

export const LOOKBACK = 5 * 60 * 1000
/** Prometheus's default evaluation interval, the step of a subquery that names none. */
export const DEFAULT_SUBQUERY_STEP = 60 * 1000

export type Fetch<E> = (
  matchers: ReadonlyArray<Matcher>,
  from: number,
  to: number
) => Effect.Effect<ReadonlyArray<RawSeries>, E>

export interface EvalContext<E> {
  /** The query's own start and end, for `@ start()` and `@ end()`. */
  readonly start: number
  readonly end: number
  readonly fetch: Fetch<E>
  /** Evaluation of a sub-expression (Eval.ts), passed in so the node kinds' files stand alone. */
  readonly evaluate: (
    node: Expr,
    steps: ReadonlyArray<number>
  ) => Effect.Effect<Value, E | EvaluationError>
}

/** A range vector: per series the samples (no stale markers), and per step its window's end. */
export interface RangeInput {
  readonly series: ReadonlyArray<RawSeries>
  readonly ends: ReadonlyArray<number>
  readonly range: number
}

const resolveAt = (ctx: { start: number; end: number }, at: At | undefined) =>
  at === "start" ? ctx.start : at === "end" ? ctx.end : at

const evalTimes = <E>(
  ctx: EvalContext<E>,
  steps: ReadonlyArray<number>,
  offset: number,
  at: At | undefined
) => {
  const pinned = resolveAt(ctx, at)
  return steps.map((t) => (pinned ?? t) - offset)
}

/** The first index whose time is greater than `t`. */
export const upperBound = (times: Float64Array, t: number, from = 0) => {
  let lo = from
  let hi = times.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (times[mid]! <= t) lo = mid + 1
    else hi = mid
  }
  return lo
}

const span = (times: ReadonlyArray<number>) => ({
  min: Math.min(...times),
  max: Math.max(...times)
})

/** The index of `one`'s newest sample in `(t - 5m, t]`, or -1: none, or a stale marker. */
export const newestAt = (one: RawSeries, t: number) => {
  const index = upperBound(one.times, t) - 1
  return index < 0 || one.times[index]! <= t - LOOKBACK || one.stale[index] === 1 ? -1 : index
}

/** The newest sample in `(t - 5m, t]` at each step; a stale newest sample hides the series. */
export const instantSelector = <E>(
  ctx: EvalContext<E>,
  node: VectorSelector,
  steps: ReadonlyArray<number>
) =>
  Effect.gen(function* () {
    const times = evalTimes(ctx, steps, node.offset, node.at)
    const { min, max } = span(times)
    const raw = yield* ctx.fetch(node.matchers, min - LOOKBACK, max)
    const series: Array<StepSeries> = []
    for (const one of raw) {
      const values = times.map((t) => {
        const index = newestAt(one, t)
        return index === -1 ? undefined : one.values[index]!
      })
      if (values.some((v) => v !== undefined)) series.push({ labels: one.labels, values })
    }
    return { kind: "vector", series } satisfies Value
  })

const withoutStale = (one: RawSeries): RawSeries => {
  if (!one.stale.includes(1)) return one
  const keep: Array<number> = []
  one.stale.forEach((flag, index) => flag === 0 && keep.push(index))
  return {
    labels: one.labels,
    times: Float64Array.from(keep, (i) => one.times[i]!),
    values: Float64Array.from(keep, (i) => one.values[i]!),
    stale: new Uint8Array(keep.length)
  }
}

const subqueryRange = <E>(ctx: EvalContext<E>, node: Subquery, steps: ReadonlyArray<number>) =>
  Effect.gen(function* () {
    const ends = evalTimes(ctx, steps, node.offset, node.at)
    const step = node.step ?? DEFAULT_SUBQUERY_STEP
    const { min, max } = span(ends)
    // The first multiple of the step after the earliest window's start, as Prometheus aligns.
    let first = Math.trunc((min - node.range) / step) * step
    if (first < min - node.range) first += step
    const inner: Array<number> = []
    for (let t = first; t <= max; t += step) inner.push(t)
    const value = yield* ctx.evaluate(node.expr, inner)
    if (value.kind === "string") throw new EvaluationError("subquery of a string", true)
    const series: ReadonlyArray<StepSeries> =
      value.kind === "scalar" ? [{ labels: {}, values: [...value.values] }] : value.series
    return {
      series: series.map((one) => {
        const kept = inner.flatMap((_, i) => (one.values[i] === undefined ? [] : [i]))
        return {
          labels: one.labels,
          times: Float64Array.from(kept, (i) => inner[i]!),
          values: Float64Array.from(kept, (i) => one.values[i]!),
          stale: new Uint8Array(kept.length)
        }
      }),
      ends,
      range: node.range
    } satisfies RangeInput
  })

/** The argument of a range function: a range selector or a subquery. */
export const rangeInput = <E>(
  ctx: EvalContext<E>,
  node: Expr,
  steps: ReadonlyArray<number>
): Effect.Effect<RangeInput, E | EvaluationError> => {
  if (node.kind === "subquery") return subqueryRange(ctx, node, steps)
  if (node.kind !== "matrix")
    return Effect.fail(new EvaluationError("expected type range vector in call to function", true))
  return Effect.gen(function* () {
    const ends = evalTimes(ctx, steps, node.selector.offset, node.selector.at)
    const { min, max } = span(ends)
    const raw = yield* ctx.fetch(node.selector.matchers, min - node.range, max)
    return { series: raw.map(withoutStale), ends, range: node.range } satisfies RangeInput
  })
}
