/**
 * The pieces of a PromQL request around evaluation: parsing into Prometheus's error
 * kinds, the evaluator's throws as `PromQLError`s, and values shaped as results.
 */
import { Effect } from "effect"
import { PromQLError } from "../../../domain/PromQL.js"
import type { PromQLResult } from "../../../domain/PromQL.js"
import { loadGrammar, parsePromQL, PromQLSyntaxError } from "./parser/Parse.js"
import type { Value } from "./evaluator/Values.js"
import { EvaluationError, labelsKey } from "./evaluator/Values.js"

/** Prometheus's limit on the points of one series in a range query. */
export const MAX_POINTS = 11_000

export const badData = (message: string, parameter?: string) =>
  new PromQLError({
    errorType: "bad_data",
    message,
    ...(parameter === undefined ? {} : { parameter })
  })

/** Prometheus's `line:column` of an offset in `text` (both from 1). */
const lineColumn = (text: string, offset: number) => {
  const before = text.slice(0, offset)
  const line = before.split("\n").length
  return `${line}:${offset - (before.lastIndexOf("\n") + 1) + 1}`
}

/**
 * `parameter`: the request's input the text came in, named by the error. A syntax error
 * says where, as Prometheus's do, when the grammar knows.
 */
export const parse = (text: string, parameter?: string) =>
  Effect.flatMap(Effect.promise(loadGrammar), (grammar) =>
    Effect.try({
      try: () => parsePromQL(grammar, text),
      catch: (error) =>
        badData(
          !(error instanceof PromQLSyntaxError)
            ? String(error)
            : error.offset === undefined
              ? `parse error: ${error.message}`
              : `${lineColumn(text, error.offset)}: parse error: ${error.message}`,
          parameter
        )
    })
  )

/** Throws of the evaluator become Prometheus's error kinds; anything else stays a defect. */
export const evaluationErrors = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  effect.pipe(
    Effect.catchAllDefect((defect) =>
      defect instanceof EvaluationError
        ? Effect.fail(
            new PromQLError({
              errorType: defect.badData ? "bad_data" : "execution",
              message: defect.message
            })
          )
        : Effect.die(defect)
    ),
    Effect.catchIf(
      (error): error is E & EvaluationError => error instanceof EvaluationError,
      (error) =>
        Effect.fail(
          new PromQLError({
            errorType: error.badData ? "bad_data" : "execution",
            message: error.message
          })
        )
    )
  )

/** A `match[]` selector's matchers. */
export const selectorMatchers = (text: string) =>
  Effect.flatMap(parse(text, "match[]"), (expr) =>
    expr.kind === "selector"
      ? Effect.succeed(expr.matchers)
      : Effect.fail(badData(`invalid series selector: ${text}`, "match[]"))
  )

export const byLabels = <A extends { readonly labels: Readonly<Record<string, string>> }>(
  items: ReadonlyArray<A>
) => [...items].sort((a, b) => (labelsKey(a.labels) < labelsKey(b.labels) ? -1 : 1))

export const asMatrix = (value: Value, steps: ReadonlyArray<number>): PromQLResult => {
  if (value.kind === "string")
    throw new EvaluationError(
      'invalid expression type "string" for range query, must be Scalar or instant Vector',
      true
    )
  const series =
    value.kind === "scalar"
      ? [{ labels: {}, points: steps.map((t, i) => [t, value.values[i]!] as const) }]
      : value.series.map((s) => {
          const points: Array<readonly [number, number]> = []
          for (let i = 0; i < steps.length; i++) {
            const v = s.values[i]
            if (v !== undefined) points.push([steps[i]!, v])
          }
          return { labels: s.labels, points }
        })
  return { _tag: "matrix", series: byLabels(series.filter((s) => s.points.length > 0)) }
}

export const asInstant = (value: Value, time: number): PromQLResult => {
  switch (value.kind) {
    case "scalar":
      return { _tag: "scalar", time, value: value.values[0]! }
    case "string":
      return { _tag: "string", time, value: value.value }
    case "vector":
      return {
        _tag: "vector",
        time,
        samples: value.series.flatMap((s) =>
          s.values[0] === undefined ? [] : [{ labels: s.labels, value: s.values[0] }]
        )
      }
  }
}
