/** Aggregation operators, step by step over the groups `by`/`without` make. */
import { Effect } from "effect"
import type { Aggregate } from "../parser/Ast.js"
import type { EvalContext } from "../read/Selectors.js"
import { goPlainDecimal } from "../parser/GoFormat.js"
import { isLabelName } from "../../SeriesLabels.js"
import type { Labels } from "../../SeriesLabels.js"
import { quantile } from "./Statistics.js"
import { limitK, limitRatio, ratioSampler } from "./Limits.js"
import { selectK } from "./TopK.js"
import type { StepSeries, Value } from "./Values.js"
import { EvaluationError, groupingLabels, labelsKey, scalarAt, VectorBuilder } from "./Values.js"
import { FOLDS, foldGroups } from "./AggregateFold.js"

const groupLabels = (node: Aggregate) => {
  const names = new Set(node.grouping)
  return (labels: Labels) => groupingLabels(labels, names, !node.without)
}

type Reducer = (values: ReadonlyArray<number>, param: number) => number

const mean = (values: ReadonlyArray<number>) => {
  let m = 0
  values.forEach((v, i) => {
    const count = i + 1
    if (m === Infinity || m === -Infinity) {
      if ((v === Infinity || v === -Infinity) && m > 0 === v > 0) return
      if (Number.isFinite(v)) return
    }
    m += v / count - m / count
  })
  return m
}

const variance = (values: ReadonlyArray<number>) => {
  const m = values.reduce((a, b) => a + b, 0) / values.length
  return values.reduce((a, v) => a + (v - m) * (v - m), 0) / values.length
}

const extreme = (better: (a: number, b: number) => boolean) => (values: ReadonlyArray<number>) =>
  values.reduce((current, v) => (better(v, current) || Number.isNaN(current) ? v : current))

const REDUCERS: Readonly<Record<string, Reducer>> = {
  sum: (values) => values.reduce((a, b) => a + b, 0),
  avg: mean,
  count: (values) => values.length,
  group: () => 1,
  min: extreme((a, b) => a < b),
  max: extreme((a, b) => a > b),
  stdvar: variance,
  stddev: (values) => Math.sqrt(variance(values)),
  quantile: (values, q) => quantile(q, values)
}

export const evaluateAggregate = <E>(
  ctx: EvalContext<E>,
  node: Aggregate,
  steps: ReadonlyArray<number>
) =>
  Effect.gen(function* () {
    const input = yield* ctx.evaluate(node.expr, steps)
    if (input.kind !== "vector")
      throw new EvaluationError(
        `expected type instant vector in aggregation expression, got ${input.kind}`,
        true
      )
    const param = node.param ? yield* ctx.evaluate(node.param, steps) : undefined
    if (node.op === "count_values") {
      if (param?.kind !== "string")
        throw new EvaluationError("count_values needs a string parameter", true)
      if (!isLabelName(param.value))
        throw new EvaluationError(`invalid label name "${param.value}"`, true)
    }
    const reducer = REDUCERS[node.op]
    const limited = node.op === "limitk" || node.op === "limit_ratio"
    const sampled = ratioSampler()
    if (!reducer && !limited && !["topk", "bottomk", "count_values"].includes(node.op))
      throw new EvaluationError(`aggregation ${node.op} is not supported yet`)
    const keyOf = groupLabels(node)
    const grouped = input.series.map((s) => {
      const labels = keyOf(s.labels)
      return { series: s, labels, key: labelsKey(labels) }
    })
    const folded = FOLDS[node.op]
    if (folded !== undefined) return foldGroups(grouped, steps.length, folded)
    const out = new VectorBuilder(steps.length)
    for (let step = 0; step < steps.length; step++) {
      const groups = new Map<
        string,
        { labels: Labels; members: Array<{ labels: Labels; value: number }> }
      >()
      for (const { series, labels, key } of grouped) {
        const value = (series as StepSeries).values[step]
        if (value === undefined) continue
        let group = groups.get(key)
        if (!group) groups.set(key, (group = { labels, members: [] }))
        group.members.push({ labels: series.labels, value })
      }
      for (const group of groups.values()) {
        if (node.op === "limitk") {
          for (const m of limitK(group.members, scalarAt(param!, step)))
            out.add(m.labels, step, m.value)
        } else if (node.op === "limit_ratio") {
          const ratio = limitRatio(scalarAt(param!, step))
          for (const m of group.members)
            if (ratio !== 0 && sampled(m.labels, ratio)) out.add(m.labels, step, m.value)
        } else if (node.op === "topk" || node.op === "bottomk") {
          for (const m of selectK(node.op === "topk", group.members, scalarAt(param!, step)))
            out.add(m.labels, step, m.value)
        } else if (node.op === "count_values" && param?.kind === "string") {
          const counts = new Map<string, number>()
          for (const m of group.members) {
            const text = goPlainDecimal(m.value)
            counts.set(text, (counts.get(text) ?? 0) + 1)
          }
          for (const [text, count] of counts)
            out.add({ ...group.labels, [param.value]: text }, step, count)
        } else {
          const q = node.op === "quantile" ? scalarAt(param!, step) : 0
          out.add(
            group.labels,
            step,
            reducer!(
              group.members.map((m) => m.value),
              q
            )
          )
        }
      }
    }
    return out.vector() satisfies Value
  })
