/**
 * The Prometheus HTTP API's reply shapes as its clients decode them (Grafana, promtool):
 * `{status, data}` and `{status: "error", errorType, error}`, for the metrics-app suites.
 */
import { Schema } from "effect"

const Metric = Schema.Record({ key: Schema.String, value: Schema.String })
/** `[seconds, "value"]`: values travel as strings in Go's formatting. */
const Sample = Schema.Tuple(Schema.Number, Schema.String)

export const Vector = Schema.Struct({
  status: Schema.Literal("success"),
  data: Schema.Struct({
    resultType: Schema.Literal("vector"),
    result: Schema.Array(Schema.Struct({ metric: Metric, value: Sample }))
  })
})

export const Matrix = Schema.Struct({
  status: Schema.Literal("success"),
  data: Schema.Struct({
    resultType: Schema.Literal("matrix"),
    result: Schema.Array(Schema.Struct({ metric: Metric, values: Schema.Array(Sample) }))
  })
})

export const Strings = Schema.Struct({
  status: Schema.Literal("success"),
  data: Schema.Array(Schema.String)
})

export const PromError = Schema.Struct({
  status: Schema.Literal("error"),
  errorType: Schema.String,
  error: Schema.String
})
