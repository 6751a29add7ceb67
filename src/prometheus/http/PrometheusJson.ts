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
