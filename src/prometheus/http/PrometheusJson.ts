/**
 * Prometheus's HTTP API bodies: `{status, data, warnings?}` and
 * `{status: "error", errorType, error}`.
 */
import { HttpServerResponse } from "@effect/platform"
import type { PromQLError, PromQLErrorType, PromQLResult } from "../../../domain/PromQL.js"
import { goSampleValue } from "../promql/parser/GoFormat.js"

const seconds = (ms: number) => ms / 1000

export const resultData = (result: PromQLResult) => {
  switch (result._tag) {
    case "matrix":
      return {
        resultType: "matrix",
        result: result.series.map((s) => ({
          metric: s.labels,
          values: s.points.map(([t, v]) => [seconds(t), goSampleValue(v)])
        }))
      }
    case "vector":
      return {
        resultType: "vector",
        result: result.samples.map((s) => ({
          metric: s.labels,
          value: [seconds(result.time), goSampleValue(s.value)]
        }))
      }
    case "scalar":
      return { resultType: "scalar", result: [seconds(result.time), goSampleValue(result.value)] }
    case "string":
      return { resultType: "string", result: [seconds(result.time), result.value] }
  }
}

/**
 * A query's success body: a matrix written as text directly, the rest through `success`.
 * A day's `max_over_time` at 2-minute steps is 150k points: as nested arrays handed to
 * `JSON.stringify` they were two arrays, a number and a string per point, all alive until
 * the body was written (measured: a sixth of the server's busy time with the collector's
 * share). The text is what `JSON.stringify` writes of `resultData`'s shape: a number as
 * `String` writes it, the value strings never needing an escape, labels stringified.
 */
export const resultBody = (result: PromQLResult) => {
  if (result._tag !== "matrix") return success(resultData(result))
  const parts: Array<string> = []
  for (const s of result.series) {
    let values = ""
    for (const [t, v] of s.points)
      values += `${values === "" ? "" : ","}[${seconds(t)},"${goSampleValue(v)}"]`
    parts.push(`{"metric":${JSON.stringify(s.labels)},"values":[${values}]}`)
  }
  return HttpServerResponse.text(
    `{"status":"success","data":{"resultType":"matrix","result":[${parts.join(",")}]}}`,
    { contentType: "application/json" }
  )
}

export const success = (data: unknown, warnings: ReadonlyArray<string> = []) =>
  HttpServerResponse.unsafeJson(
    warnings.length === 0 ? { status: "success", data } : { status: "success", data, warnings }
  )

const STATUS: Record<typeof PromQLErrorType.Type, number> = {
  bad_data: 400,
  execution: 422,
  timeout: 503,
  canceled: 503,
  internal: 500
}

export const failure = (errorType: typeof PromQLErrorType.Type, error: string) =>
  HttpServerResponse.unsafeJson(
    { status: "error", errorType, error },
    { status: STATUS[errorType] }
  )

/** A `PromQLError` as Prometheus words it: the parameter at fault first, when there is one. */
export const failureOf = (error: PromQLError) =>
  failure(
    error.errorType,
    error.parameter === undefined
      ? error.message
      : `invalid parameter "${error.parameter}": ${error.message}`
  )
