/** Selectors and subqueries: the samples each step of a node reads. */
import { Effect } from "effect"
import type { At, Expr, Matcher, Subquery, VectorSelector } from "../parser/Ast.js"
import type { Budget } from "../evaluator/Budget.js"
import { pace } from "../evaluator/Budget.js"
import type { RawSeries, StepSeries, Value } from "../evaluator/Values.js"
import { EvaluationError, labelsKey } from "../evaluator/Values.js"
import type { Labels } from "../../SeriesLabels.js"

export const LOOKBACK = 5 * 60 * 1000
/** Prometheus's default evaluation interval, the step of a subquery that names none. */
export const DEFAULT_SUBQUERY_STEP = 60 * 1000
/** A subquery's grid is evaluated this many steps at a time, so its arrays stay small. */
export const SUBQUERY_SLICE = 16_384

/**
 * Which samples of `(from, to]` a read needs when its windows leave gaps (a step longer
 * than the window): those within `range` ms at or before a time `phase` plus a multiple
 * of `step` (integer ms). Without it, every sample in `(from, to]`.
 */
export interface Windows {
  readonly phase: number
  readonly step: number
  readonly range: number
}

/** A read of a selector's samples in `(from, to]` (those `windows` holds, when given). */
type SelectorRead<A, E> = (
  matchers: ReadonlyArray<Matcher>,
  from: number,
  to: number,
  windows?: Windows
) => Effect.Effect<A, E>

export type Fetch<E> = SelectorRead<ReadonlyArray<RawSeries>, E>

/** Of one series, how many samples each window of a read holds (`CountFetch`). */
export interface WindowCounts {
  readonly labels: Labels
  /** A window's end (whole ms) → its samples, stale markers left out; windows with none absent. */
  readonly counted: ReadonlyMap<number, number>
  /** The samples the read holds, stale markers included: what reading them would load. */
  readonly samples: number
}

/**
 * Counts in the engine what `Fetch` would read: per series with samples in `(from, to]`,
 * its samples in each window (`windows`, else the one window ending at `to`).
 */
export type CountFetch<E> = SelectorRead<ReadonlyArray<WindowCounts>, E>

/**
 * The windows `(end - range, end]` of `ends` as `Windows`, when they are evenly spaced
 * with gaps between them. A sample time is whole ms, so it is inside `(e - range, e]` of
 * a fractional `e` exactly when it is inside that of `floor(e)`.
 */
export const windowsOf = (ends: ReadonlyArray<number>, range: number): Windows | undefined => {
  if (ends.length < 2 || !Number.isInteger(range)) return undefined
  const first = Math.floor(ends[0]!)
  const step = Math.floor(ends[1]!) - first
  if (!(step > range)) return undefined
  for (let i = 2; i < ends.length; i++)
    if (Math.floor(ends[i]!) !== first + i * step) return undefined
  return { phase: ((first % step) + step) % step, step, range }
}

export interface EvalContext<E> {
  /** The query's own start and end, for `@ start()` and `@ end()`. */
  readonly start: number
  readonly end: number
  readonly fetch: Fetch<E>
  /** Counting in the engine, where the storage can (a subquery's grid reads samples). */
  readonly countWindows?: CountFetch<E>
  readonly budget: Budget
  /** The same query reading through `fetch`. */
  readonly withFetch: (fetch: Fetch<E>) => EvalContext<E>
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

/**
 * `upperBound` for a `t` expected a few samples past `from` (a window's edge moved one
 * step on): probed 1, 2, 4, … ahead, then searched between the last two probes.
 */
export const upperBoundAhead = (times: Float64Array, t: number, from: number) => {
  let lo = from
  let ahead = 1
  while (lo + ahead <= times.length && times[lo + ahead - 1]! <= t) {
    lo += ahead
    ahead *= 2
  }
  let hi = Math.min(times.length, lo + ahead - 1)
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

/** The samples of `series` in `(from, to]`, as views of its arrays; empty ones left out. */
export const samplesWithin = (series: ReadonlyArray<RawSeries>, from: number, to: number) => {
  const out: Array<RawSeries> = []
  for (const one of series) {
    const start = upperBound(one.times, from)
    const end = upperBound(one.times, to, start)
    if (end > start)
      out.push({
        labels: one.labels,
        times: one.times.subarray(start, end),
        values: one.values.subarray(start, end),
        stale: one.stale.subarray(start, end)
      })
  }
  return out
}

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
    const raw = yield* ctx.fetch(node.matchers, min - LOOKBACK, max, windowsOf(times, LOOKBACK))
    const series: Array<StepSeries> = []
    for (const one of raw) {
      yield* pace(ctx.budget, times.length)
      const values = times.map((t) => {
        const index = newestAt(one, t)
        return index === -1 ? undefined : one.values[index]!
      })
      if (values.some((v) => v !== undefined)) {
        ctx.budget.load(times.length)
        series.push({ labels: one.labels, values })
      }
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

/**
 * For a subquery evaluated slice by slice: each selector read once, up to where its
 * reads will reach by the grid's last slice, and each slice's window cut from that read
 * (every sample of it: later slices' windows may need any).
 */
const gridReads = <E>(fetch: Fetch<E>, gridEnd: number, sliceEnd: () => number): Fetch<E> => {
  const kept = new Map<
    string,
    Array<{ from: number; to: number; series: ReadonlyArray<RawSeries> }>
  >()
  return (matchers, from, to) => {
    const key = JSON.stringify(matchers)
    const reads = kept.get(key) ?? []
    const covering = reads.find((read) => read.from <= from && read.to >= to)
    if (covering !== undefined) return Effect.succeed(samplesWithin(covering.series, from, to))
    const until = to + (gridEnd - sliceEnd())
    return Effect.map(fetch(matchers, from, until), (series) => {
      kept.set(key, [...reads, { from, to: until, series }])
      return samplesWithin(series, from, to)
    })
  }
}

const GRID_BLOCK = 65_536

/**
 * One series' points on a subquery's grid, in blocks: a grid may hold tens of millions,
 * and growing one array by doubling would copy them all at once, on the event loop.
 */
class GridSeries {
  private readonly blocks: Array<{ times: Float64Array; values: Float64Array }> = []
  length = 0
  constructor(readonly labels: StepSeries["labels"]) {}

  push(time: number, value: number) {
    const at = this.length % GRID_BLOCK
    if (at === 0)
      this.blocks.push({
        times: new Float64Array(GRID_BLOCK),
        values: new Float64Array(GRID_BLOCK)
      })
    const block = this.blocks[this.blocks.length - 1]!
    block.times[at] = time
    block.values[at] = value
    this.length++
  }

  series(budget: Budget) {
    const { blocks, labels, length } = this
    return Effect.gen(function* () {
      const times = new Float64Array(length)
      const values = new Float64Array(length)
      for (let i = 0; i < blocks.length; i++) {
        const n = Math.min(GRID_BLOCK, length - i * GRID_BLOCK)
        times.set(blocks[i]!.times.subarray(0, n), i * GRID_BLOCK)
        values.set(blocks[i]!.values.subarray(0, n), i * GRID_BLOCK)
        yield* pace(budget, n)
      }
      return { labels, times, values, stale: new Uint8Array(length) } satisfies RawSeries
    })
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
    const count = max < first ? 0 : Math.floor((max - first) / step) + 1
    // The grid, and the points of one series over it, counted before any is made.
    let reserved = count
    ctx.budget.load(count + reserved)
    const gridEnd = first + (count - 1) * step
    let sliceEnd = gridEnd
    const inner =
      count <= SUBQUERY_SLICE ? ctx : ctx.withFetch(gridReads(ctx.fetch, gridEnd, () => sliceEnd))
    const grid = new Map<string, GridSeries>()
    for (let done = 0; done < count; done += SUBQUERY_SLICE) {
      const times: Array<number> = []
      for (let i = done; i < Math.min(count, done + SUBQUERY_SLICE); i++)
        times.push(first + i * step)
      sliceEnd = times[times.length - 1]!
      const value = yield* inner.evaluate(node.expr, times)
      if (value.kind === "string") throw new EvaluationError("subquery of a string", true)
      const series: ReadonlyArray<StepSeries> =
        value.kind === "scalar" ? [{ labels: {}, values: [...value.values] }] : value.series
      for (const one of series) {
        const key = labelsKey(one.labels)
        let kept = grid.get(key)
        if (kept === undefined) grid.set(key, (kept = new GridSeries(one.labels)))
        const before = kept.length
        for (let i = 0; i < times.length; i++) {
          const v = one.values[i]
          if (v !== undefined) kept.push(times[i]!, v)
        }
        const added = kept.length - before
        ctx.budget.load(Math.max(0, added - reserved))
        reserved = Math.max(0, reserved - added)
      }
      yield* pace(ctx.budget, times.length * Math.max(1, series.length))
    }
    return {
      series: yield* Effect.forEach(grid.values(), (one) => one.series(ctx.budget)),
      ends,
      range: node.range
    } satisfies RangeInput
  })

/**
 * A read spanning more than this, when a range function only counts its windows' samples,
 * is counted by the engine: moving a long read's samples out of the engine and decoding
 * them costs several times what counting them there does. Shorter reads stay reads, which
 * later queries may take from the ones kept (ReadCache.ts).
 */
const ENGINE_COUNTED_MS = 3_600_000

/** Of one series, its samples (stale markers left out) in each step's window; none absent. */
export interface StepCounts {
  readonly labels: Labels
  readonly counts: ReadonlyArray<number | undefined>
}

/**
 * The samples in each step's window of a range selector, per series with any, counted by
 * the engine when the windows do not overlap (one step, or steps further apart than the
 * range) and the read is long; `undefined` otherwise, and the samples are to be read.
 * Loads the budget with the samples, as reading them would.
 */
export const engineCounts = <E>(
  ctx: EvalContext<E>,
  node: Expr,
  steps: ReadonlyArray<number>
): Effect.Effect<ReadonlyArray<StepCounts> | undefined, E> =>
  Effect.gen(function* () {
    const countWindows = ctx.countWindows
    if (countWindows === undefined || node.kind !== "matrix") return undefined
    const ends = evalTimes(ctx, steps, node.selector.offset, node.selector.at)
    const windows = windowsOf(ends, node.range)
    const { min, max } = span(ends)
    if ((ends.length > 1 && windows === undefined) || max - (min - node.range) <= ENGINE_COUNTED_MS)
      return undefined
    const counts = yield* countWindows(node.selector.matchers, min - node.range, max, windows)
    ctx.budget.load(counts.reduce((sum, one) => sum + one.samples, 0))
    const out: Array<StepCounts> = []
    for (const one of counts) {
      if (one.counted.size === 0) continue
      yield* pace(ctx.budget, ends.length)
      out.push({ labels: one.labels, counts: ends.map((end) => one.counted.get(Math.floor(end))) })
    }
    return out
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
    const raw = yield* ctx.fetch(
      node.selector.matchers,
      min - node.range,
      max,
      windowsOf(ends, node.range)
    )
    ctx.budget.load(raw.reduce((sum, one) => sum + one.times.length, 0))
    return { series: raw.map(withoutStale), ends, range: node.range } satisfies RangeInput
  })
}
