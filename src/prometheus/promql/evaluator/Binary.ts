/** Binary operators: scalar/vector arithmetic, comparisons, vector matching, set operators. */
import { Effect } from "effect"
import type { Binary, BinaryOp, VectorMatching } from "../parser/Ast.js"
import { COMPARISONS, SET_OPS } from "../parser/Ast.js"
import type { EvalContext } from "../read/Selectors.js"
import { labelOf, labelSet } from "../../SeriesLabels.js"
import type { Labels } from "../../SeriesLabels.js"
import type { StepSeries, Value } from "./Values.js"
import {
  EvaluationError,
  groupingLabels,
  labelsKey,
  showLabels,
  VectorBuilder,
  withoutName
} from "./Values.js"

/** Go's math.Mod: the sign of x, and x itself when y is infinite. */
const goMod = (x: number, y: number) =>
  Number.isFinite(x) && !Number.isFinite(y) && !Number.isNaN(y) ? x : x % y

/** Go's math.Pow: 1 to any power, and -1 to an infinite one, is 1 (JavaScript says NaN). */
const goPow = (x: number, y: number) =>
  x === 1 || (x === -1 && !Number.isFinite(y) && !Number.isNaN(y)) ? 1 : Math.pow(x, y)

export const arithmetic = (op: BinaryOp, x: number, y: number): number => {
  switch (op) {
    case "+":
      return x + y
    case "-":
      return x - y
    case "*":
      return x * y
    case "/":
      return x / y
    case "%":
      return goMod(x, y)
    case "^":
      return goPow(x, y)
    case "atan2":
      return Math.atan2(x, y)
    case "==":
      return x === y ? 1 : 0
    case "!=":
      return x !== y ? 1 : 0
    case ">":
      return x > y ? 1 : 0
    case "<":
      return x < y ? 1 : 0
    case ">=":
      return x >= y ? 1 : 0
    case "<=":
      return x <= y ? 1 : 0
    default:
      throw new EvaluationError(`operator ${op} not allowed between these operands`, true)
  }
}

/** The value kept for `x op y` on vectors, or `undefined` when a comparison filters it out. */
const combine = (op: BinaryOp, x: number, y: number, bool: boolean, keep: number) => {
  const result = arithmetic(op, x, y)
  if (!COMPARISONS.has(op)) return result
  if (bool) return result
  return result === 1 ? keep : undefined
}

/** The labels a series is matched by: those named by `on`, or all but those `ignoring` names. */
const matchGroup = (matching: VectorMatching, labels: Labels): Labels =>
  groupingLabels(labels, new Set(matching.labels), matching.on)

const signature = (matching: VectorMatching) => (labels: Labels) =>
  labelsKey(matchGroup(matching, labels))

const resultLabels = (
  op: BinaryOp,
  bool: boolean,
  matching: VectorMatching,
  many: Labels,
  one: Labels
): Labels => {
  const out = labelSet(many)
  if (!COMPARISONS.has(op) || bool) delete out.__name__
  if (matching.card === "one-to-one") {
    const names = new Set(matching.labels)
    for (const name of Object.keys(out))
      if (matching.on ? !names.has(name) : names.has(name)) delete out[name]
  }
  for (const name of matching.include) {
    const value = labelOf(one, name)
    if (value !== undefined && value !== "") out[name] = value
    else delete out[name]
  }
  return out
}

const vectorVector = (
  node: Binary,
  lhs: ReadonlyArray<StepSeries>,
  rhs: ReadonlyArray<StepSeries>,
  steps: number
) => {
  const matching: VectorMatching = node.matching ?? {
    card: "one-to-one",
    on: false,
    labels: [],
    include: []
  }
  if (SET_OPS.has(node.op)) return setOperation(node.op, matching, lhs, rhs, steps)
  const sig = signature(matching)
  const swap = matching.card === "one-to-many"
  const many = swap ? rhs : lhs
  const one = swap ? lhs : rhs
  const manySigs = many.map((s) => sig(s.labels))
  const oneSigs = one.map((s) => sig(s.labels))
  const out = new VectorBuilder(steps)
  // A pair of matched series gives one result series, whose labels and slots are made the
  // first time it is seen rather than at every step it has a value.
  const pairs = new Map<StepSeries, Map<StepSeries, Array<number | undefined>>>()
  const slotsOf = (series: StepSeries, other: StepSeries) => {
    let byOther = pairs.get(series)
    if (byOther === undefined) pairs.set(series, (byOther = new Map()))
    let slots = byOther.get(other)
    if (slots === undefined) {
      slots = out.slots(resultLabels(node.op, node.bool, matching, series.labels, other.labels))
      byOther.set(other, slots)
    }
    return slots
  }
  const present = (side: ReadonlyArray<StepSeries>, step: number) =>
    side.some((series) => series.values[step] !== undefined)
  for (let step = 0; step < steps; step++) {
    // A step where either side has nothing matches nothing, duplicates or not.
    if (!present(many, step) || !present(one, step)) continue
    const ones = new Map<string, StepSeries>()
    one.forEach((series, index) => {
      if (series.values[step] === undefined) return
      const key = oneSigs[index]!
      const earlier = ones.get(key)
      if (earlier !== undefined)
        throw new EvaluationError(
          `found duplicate series for the match group ${showLabels(matchGroup(matching, series.labels))} on the ${swap ? "left" : "right"} hand-side of the operation: [${showLabels(series.labels)}, ${showLabels(earlier.labels)}];many-to-many matching not allowed: matching labels must be unique on one side`
        )
      ones.set(key, series)
    })
    const matched = new Set<string>()
    many.forEach((series, index) => {
      const x = series.values[step]
      if (x === undefined) return
      const key = manySigs[index]!
      const other = ones.get(key)
      if (other === undefined) return
      const y = other.values[step]!
      const [l, r] = swap ? [y, x] : [x, y]
      const value = combine(node.op, l, r, node.bool, l)
      if (value === undefined) return
      if (matching.card === "one-to-one") {
        if (matched.has(key))
          throw new EvaluationError(
            "multiple matches for labels: many-to-one matching must be explicit (group_left/group_right)"
          )
        matched.add(key)
      }
      VectorBuilder.set(slotsOf(series, other), step, value)
    })
  }
  return out.vector()
}

const setOperation = (
  op: BinaryOp,
  matching: VectorMatching,
  lhs: ReadonlyArray<StepSeries>,
  rhs: ReadonlyArray<StepSeries>,
  steps: number
): Value => {
  const sig = signature(matching)
  const lhsSigs = lhs.map((s) => sig(s.labels))
  const rhsSigs = rhs.map((s) => sig(s.labels))
  const present = (series: ReadonlyArray<StepSeries>, sigs: ReadonlyArray<string>, step: number) =>
    new Set(series.flatMap((s, i) => (s.values[step] === undefined ? [] : [sigs[i]!])))
  const left = lhs.map((s) => ({ labels: s.labels, values: [...s.values] }))
  const right = rhs.map((s) => ({
    labels: s.labels,
    values: s.values.map(() => undefined as number | undefined)
  }))
  for (let step = 0; step < steps; step++) {
    const inRight = present(rhs, rhsSigs, step)
    if (op === "and" || op === "unless") {
      left.forEach((s, i) => {
        if (inRight.has(lhsSigs[i]!) !== (op === "and")) s.values[step] = undefined
      })
    } else {
      const inLeft = present(lhs, lhsSigs, step)
      rhs.forEach((s, i) => {
        if (!inLeft.has(rhsSigs[i]!)) right[i]!.values[step] = s.values[step]
      })
    }
  }
  const series = [...left, ...right].filter((s) => s.values.some((v) => v !== undefined))
  return { kind: "vector", series }
}

export const evaluateBinary = <E>(
  ctx: EvalContext<E>,
  node: Binary,
  steps: ReadonlyArray<number>
) =>
  Effect.gen(function* () {
    // Both sides at once: each is mostly a round trip to the engine for its samples.
    const [lhs, rhs] = yield* Effect.all(
      [ctx.evaluate(node.lhs, steps), ctx.evaluate(node.rhs, steps)],
      { concurrency: 2 }
    )
    // The operands' types were checked with the query (Check.ts).
    if (lhs.kind === "string" || rhs.kind === "string") throw new Error("a string operand")
    if (lhs.kind === "scalar" && rhs.kind === "scalar") {
      return {
        kind: "scalar",
        values: lhs.values.map((x, i) => arithmetic(node.op, x, rhs.values[i]!))
      } satisfies Value
    }
    if (SET_OPS.has(node.op) && (lhs.kind === "scalar" || rhs.kind === "scalar"))
      throw new EvaluationError(
        `set operator "${node.op}" not allowed in binary scalar expression`,
        true
      )
    if (lhs.kind === "vector" && rhs.kind === "vector")
      return vectorVector(node, lhs.series, rhs.series, steps.length)
    const vector = lhs.kind === "vector" ? lhs : rhs
    const scalar = lhs.kind === "scalar" ? lhs : rhs
    if (vector.kind !== "vector" || scalar.kind !== "scalar")
      throw new EvaluationError("unreachable")
    const dropName = !COMPARISONS.has(node.op) || node.bool
    const out = new VectorBuilder(steps.length)
    for (const s of vector.series) {
      const labels = dropName ? withoutName(s.labels) : s.labels
      s.values.forEach((v, step) => {
        if (v === undefined) return
        const k = scalar.values[step]!
        const [x, y] = lhs.kind === "vector" ? [v, k] : [k, v]
        // A filtering comparison keeps the vector's value, on either side.
        const value = combine(node.op, x, y, node.bool, v)
        if (value !== undefined) out.add(labels, step, value)
      })
    }
    return out.vector()
  })
