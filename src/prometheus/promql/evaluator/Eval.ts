/**
 * PromQL evaluation in JavaScript over samples the storage returns for each selector's
 * time range (Fetch.ts). The engine's `timeSeries*ToGrid` functions differ from
 * Prometheus on stale markers, `deriv`'s scale and window edges, and
 * chDB cannot take their settings through the user-level query path, so this slice reads
 * samples with plain SQL and evaluates every step here, Prometheus's way. Memory is one
 * selector's samples in the query's range at a time, plus the step grids.
 */
import { Effect } from "effect"
import type { Expr } from "../parser/Ast.js"
import { evaluateAggregate } from "./Aggregate.js"
import { evaluateBinary } from "./Binary.js"
import type { Budget } from "./Budget.js"
import { evaluateCall } from "./Calls.js"
import type { CountFetch, EvalContext, Fetch } from "../read/Selectors.js"
import { instantSelector } from "../read/Selectors.js"
import type { Value } from "./Values.js"
import { EvaluationError, withoutName } from "./Values.js"

export const evaluate = <E>(
  ctx: EvalContext<E>,
  node: Expr,
  steps: ReadonlyArray<number>
): Effect.Effect<Value, E | EvaluationError> => {
  switch (node.kind) {
    case "number":
      return Effect.succeed({ kind: "scalar", values: steps.map(() => node.value) })
    case "string":
      return Effect.succeed({ kind: "string", value: node.value })
    case "selector":
      return instantSelector(ctx, node, steps)
    case "matrix":
    case "subquery":
      return Effect.fail(
        new EvaluationError("range vectors are only allowed as arguments of range functions", true)
      )
    case "unary":
      return Effect.map(evaluate(ctx, node.expr, steps), (value) => {
        if (node.op === "+") return value
        if (value.kind === "scalar") return { kind: "scalar", values: value.values.map((v) => -v) }
        if (value.kind === "string") throw new EvaluationError("unary minus on a string", true)
        return {
          kind: "vector",
          series: value.series.map((s) => ({
            labels: withoutName(s.labels),
            values: s.values.map((v) => (v === undefined ? v : -v))
          }))
        }
      })
    case "binary":
      return evaluateBinary(ctx, node, steps)
    case "aggregate":
      return evaluateAggregate(ctx, node, steps)
    case "call":
      return evaluateCall(ctx, node, steps)
  }
}

/** The context of one query: its start and end, how selectors read samples, its budget. */
export const queryContext = <E>(
  start: number,
  end: number,
  fetch: Fetch<E>,
  budget: Budget,
  countWindows?: CountFetch<E>
): EvalContext<E> => {
  const ctx: EvalContext<E> = {
    start,
    end,
    fetch,
    ...(countWindows === undefined ? {} : { countWindows }),
    budget,
    withFetch: (other) => queryContext(start, end, other, budget),
    evaluate: (node, steps) => evaluate(ctx, node, steps)
  }
  return ctx
}
