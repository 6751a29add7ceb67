/** Function calls: range functions over windows, and the instant-vector function library. */
import { Effect } from "effect"
import type { Call, Expr } from "../parser/Ast.js"
import type { Budget } from "./Budget.js"
import { eventLoopTurn, pace } from "./Budget.js"
import type { EvalContext, StepCounts } from "../read/Selectors.js"
import {
  engineCounts,
  LOOKBACK,
  newestAt,
  rangeInput,
  upperBound,
  upperBoundAhead
} from "../read/Selectors.js"
import { civilTime } from "./Calendar.js"
import { DATES, KEEPS_NAME, MATH, RANGE_FUNCTIONS } from "../parser/Functions.js"
import { histogramQuantile } from "./Histogram.js"
import { infoCall } from "./Info.js"
import { labelJoin, labelReplace } from "./LabelFunctions.js"
import type { RangeFunction } from "./RangeFunctions.js"
import { rangeFunctionFor } from "./RangeFunctions.js"
import { sortByLabel, sortByValue } from "./Sorting.js"
import type { Labels } from "../../SeriesLabels.js"
import type { StepSeries, Value } from "./Values.js"
import { EvaluationError, scalarAt, VectorBuilder, withoutName } from "./Values.js"

/** Labels `absent` gives: the equality matchers of a selector argument, once each. */
const absentLabels = (arg: Expr): Labels => {
  const selector = arg.kind === "matrix" ? arg.selector : arg.kind === "selector" ? arg : undefined
  const out: Record<string, string> = {}
  const seen = new Set<string>()
  for (const m of selector?.matchers ?? []) {
    if (m.name === "__name__" || m.type !== "=") continue
    if (seen.has(m.name)) delete out[m.name]
    else out[m.name] = m.value
    seen.add(m.name)
  }
  return out
}

const mapVector = (
  value: Value,
  f: (v: number, step: number) => number | undefined,
  keepName = false
): Value => {
  if (value.kind !== "vector")
    throw new EvaluationError("expected an instant vector argument", true)
  const out = new VectorBuilder(value.series[0]?.values.length ?? 0)
  for (const s of value.series) {
    const labels = keepName ? s.labels : withoutName(s.labels)
    s.values.forEach((v, step) => {
      if (v === undefined) return
      const result = f(v, step)
      if (result !== undefined) out.add(labels, step, result)
    })
  }
  return out.vector()
}

/** The range functions that only count their windows' samples (`engineCounts`). */
const COUNTING = new Set(["count_over_time", "present_over_time", "absent_over_time"])

/** A `COUNTING` function's answer from its windows' counts, as `rangeCall` answers it. */
const fromCounts = <E>(
  ctx: EvalContext<E>,
  fn: string,
  arg: Expr,
  counted: ReadonlyArray<StepCounts>,
  steps: ReadonlyArray<number>
): Effect.Effect<Value> =>
  Effect.gen(function* () {
    if (fn === "absent_over_time") {
      const present = new Array<boolean>(steps.length).fill(false)
      for (const one of counted) {
        yield* pace(ctx.budget, steps.length)
        one.counts.forEach((count, step) => {
          if (count !== undefined) present[step] = true
        })
      }
      const values = present.map((any) => (any ? undefined : 1))
      const series = values.some((v) => v !== undefined)
        ? [{ labels: absentLabels(arg), values }]
        : []
      return { kind: "vector", series } satisfies Value
    }
    const out = new VectorBuilder(steps.length)
    for (const one of counted) {
      ctx.budget.load(steps.length)
      yield* pace(ctx.budget, steps.length)
      const slots = out.slots(withoutName(one.labels))
      one.counts.forEach((count, step) => {
        if (count !== undefined)
          VectorBuilder.set(slots, step, fn === "present_over_time" ? 1 : count)
      })
    }
    return out.vector()
  })

const rangeCall = <E>(ctx: EvalContext<E>, node: Call, steps: ReadonlyArray<number>) =>
  Effect.gen(function* () {
    const paramFirst = node.fn === "quantile_over_time"
    const rangeArg = node.args[paramFirst ? 1 : 0]
    const paramArg = paramFirst ? node.args[0] : node.args[1]
    if (!rangeArg)
      throw new EvaluationError(`expected at least one argument in call to "${node.fn}"`, true)
    if (COUNTING.has(node.fn)) {
      const counted = yield* engineCounts(ctx, rangeArg, steps)
      if (counted !== undefined) return yield* fromCounts(ctx, node.fn, rangeArg, counted, steps)
    }
    const input = yield* rangeInput(ctx, rangeArg, steps)
    const param = paramArg ? yield* ctx.evaluate(paramArg, steps) : undefined
    // double_exponential_smoothing's trend factor.
    const second = node.args[2] ? yield* ctx.evaluate(node.args[2], steps) : undefined
    if (node.fn === "absent_over_time") {
      const values = steps.map((_, step) => {
        const end = input.ends[step]!
        const any = input.series.some(
          (s) => upperBound(s.times, end) > upperBound(s.times, end - input.range)
        )
        return any ? undefined : 1
      })
      const series = values.some((v) => v !== undefined)
        ? [{ labels: absentLabels(rangeArg), values }]
        : []
      return { kind: "vector", series } satisfies Value
    }
    const fnFor = rangeFunctionFor(node.fn)!
    const out = new VectorBuilder(steps.length)
    for (const s of input.series) {
      if (s.times.length > 0) ctx.budget.load(steps.length)
      const fn = fnFor()
      const walk = new StepWalk(s.times, s.values, input.range)
      const labels = KEEPS_NAME.has(node.fn) ? s.labels : withoutName(s.labels)
      while (!walk.run(fn, input.ends, steps, param, second, ctx.budget)) yield* eventLoopTurn
      if (walk.slots !== undefined) out.put(labels, walk.slots)
    }
    return out.vector()
  })

/**
 * One series' windows walked along the steps, a range function's value at each. A plain
 * method rather than the evaluation's generator: the loop runs for every step of every
 * series and stays optimized from one query to the next.
 */
class StepWalk {
  /** One window object, moved along the steps. */
  readonly window: {
    times: Float64Array
    values: Float64Array
    lo: number
    hi: number
    end: number
    range: number
    stepTime: number
  }
  step = 0
  private previous = -Infinity
  /** The values by step, made at the first. */
  slots: Array<number | undefined> | undefined

  constructor(times: Float64Array, values: Float64Array, range: number) {
    this.window = { times, values, lo: 0, hi: 0, end: 0, range, stepTime: 0 }
  }

  /** Walks on until the last step (true) or until the event loop is due a turn (false). */
  run(
    fn: RangeFunction,
    ends: ReadonlyArray<number>,
    steps: ReadonlyArray<number>,
    param: Value | undefined,
    second: Value | undefined,
    budget: Budget
  ): boolean {
    const window = this.window
    const times = window.times
    let lo = window.lo
    let hi = window.hi
    while (this.step < steps.length) {
      const step = this.step++
      const end = ends[step]!
      // Steps go forward in time, so each search starts where the last one ended.
      if (end < this.previous) lo = hi = 0
      this.previous = end
      hi = upperBoundAhead(times, end, hi)
      lo = upperBoundAhead(times, end - window.range, Math.min(lo, hi))
      if (hi > lo) {
        window.lo = lo
        window.hi = hi
        window.end = end
        window.stepTime = steps[step]!
        const value = fn(
          window,
          param ? scalarAt(param, step) : 0,
          second ? scalarAt(second, step) : 0
        )
        if (value !== undefined) {
          this.slots ??= new Array<number | undefined>(steps.length)
          this.slots[step] = value
        }
      }
      // A window is read whole at each step: long windows over many steps take long.
      if (budget.due(hi - lo + 1)) {
        window.lo = lo
        window.hi = hi
        return false
      }
    }
    return true
  }
}

/** `timestamp(selector)` is each sample's own time; of anything else, the step's. */
const timestampCall = <E>(ctx: EvalContext<E>, arg: Expr, steps: ReadonlyArray<number>) =>
  Effect.gen(function* () {
    if (arg.kind !== "selector") {
      const value = yield* ctx.evaluate(arg, steps)
      return mapVector(value, (_, step) => steps[step]! / 1000)
    }
    const input = yield* rangeInput(ctx, { kind: "matrix", selector: arg, range: LOOKBACK }, steps)
    const out = new VectorBuilder(steps.length)
    // Stale rows were left out of the range input; a series whose newest sample is stale
    // must still vanish, so look at the raw rows once more.
    const raw = yield* ctx.fetch(
      arg.matchers,
      Math.min(...input.ends) - LOOKBACK,
      Math.max(...input.ends)
    )
    for (const s of raw) {
      yield* pace(ctx.budget, steps.length)
      for (let step = 0; step < steps.length; step++) {
        const index = newestAt(s, input.ends[step]!)
        if (index !== -1) out.add(withoutName(s.labels), step, s.times[index]! / 1000)
      }
    }
    return out.vector()
  })

export const evaluateCall = <E>(
  ctx: EvalContext<E>,
  node: Call,
  steps: ReadonlyArray<number>
): Effect.Effect<Value, E | EvaluationError> =>
  Effect.gen(function* () {
    if (RANGE_FUNCTIONS.has(node.fn)) return yield* rangeCall(ctx, node, steps)
    if (node.fn === "time")
      return { kind: "scalar", values: steps.map((t) => t / 1000) } satisfies Value
    if (node.fn === "pi")
      return { kind: "scalar", values: steps.map(() => Math.PI) } satisfies Value
    if (node.fn === "timestamp") return yield* timestampCall(ctx, node.args[0]!, steps)
    if (node.fn === "info") return yield* infoCall(ctx, node, steps)
    const args: Array<Value> = []
    for (const arg of node.args) args.push(yield* ctx.evaluate(arg, steps))
    const [first] = args
    const math = MATH[node.fn]
    if (math) return mapVector(first!, (v) => math(v))
    const date = DATES[node.fn]
    if (date) {
      const input: Value = first ?? {
        kind: "vector",
        series: [{ labels: {}, values: steps.map((t) => t / 1000) }]
      }
      return mapVector(input, (v) => date(civilTime(v)))
    }
    switch (node.fn) {
      case "vector":
        return {
          kind: "vector",
          series: [{ labels: {}, values: steps.map((_, i) => scalarAt(first!, i)) }]
        } satisfies Value
      case "scalar": {
        if (first?.kind !== "vector")
          throw new EvaluationError("scalar() expects an instant vector", true)
        return {
          kind: "scalar",
          values: steps.map((_, step) => {
            const present = first.series.filter((s) => s.values[step] !== undefined)
            return present.length === 1 ? present[0]!.values[step]! : NaN
          })
        } satisfies Value
      }
      case "absent": {
        if (first?.kind !== "vector")
          throw new EvaluationError("absent() expects an instant vector", true)
        const values = steps.map((_, step) =>
          first.series.some((s) => s.values[step] !== undefined) ? undefined : 1
        )
        const series: Array<StepSeries> = values.some((v) => v !== undefined)
          ? [{ labels: absentLabels(node.args[0]!), values }]
          : []
        return { kind: "vector", series } satisfies Value
      }
      case "round":
        return mapVector(first!, (v, step) => {
          const inverse = 1 / (args[1] ? scalarAt(args[1], step) : 1)
          return Math.floor(v * inverse + 0.5) / inverse
        })
      case "clamp":
        return mapVector(first!, (v, step) => {
          const lo = scalarAt(args[1]!, step)
          const hi = scalarAt(args[2]!, step)
          return hi < lo ? undefined : Math.max(lo, Math.min(hi, v))
        })
      case "clamp_min":
        return mapVector(first!, (v, step) => Math.max(scalarAt(args[1]!, step), v))
      case "clamp_max":
        return mapVector(first!, (v, step) => Math.min(scalarAt(args[1]!, step), v))
      case "sort":
      case "sort_desc":
        return sortByValue(first, node.fn === "sort_desc", steps.length)
      case "sort_by_label":
      case "sort_by_label_desc":
        return sortByLabel(args, node.fn === "sort_by_label_desc")
      // Native-histogram functions skip float samples; sluice stores only floats.
      case "histogram_avg":
      case "histogram_count":
      case "histogram_sum":
      case "histogram_stddev":
      case "histogram_stdvar":
      case "histogram_fraction":
        return { kind: "vector", series: [] } satisfies Value
      case "label_replace":
        return labelReplace(args)
      case "label_join":
        return labelJoin(args)
      case "histogram_quantile":
        return histogramQuantile(args[0]!, args[1]!, steps.length)
      default:
        throw new EvaluationError(`function ${node.fn} is not supported yet`)
    }
  })
