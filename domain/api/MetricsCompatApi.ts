import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { ErrorWire } from "../Errors.js"
import { Authentication } from "../Identity.js"
import { DataScopeParams } from "./Scope.js"

/**
 * Prometheus' response envelope. `data` varies by endpoint and is passed through as
 * Prometheus shapes it, so it stays untyped here.
 */
export class PrometheusResponse extends Schema.Class<PrometheusResponse>("PrometheusResponse")({
  status: Schema.Literal("success", "error"),
  data: Schema.optional(Schema.Unknown),
  errorType: Schema.optional(Schema.String),
  error: Schema.optional(Schema.String),
  warnings: Schema.optional(Schema.Array(Schema.String)),
  infos: Schema.optional(Schema.Array(Schema.String))
}) {}

const optional = Schema.optional(Schema.String)
const matchers = Schema.optional(Schema.Array(Schema.String))

// Times are RFC 3339 or Unix seconds, durations Prometheus durations or seconds: strings.
// Required ones are optional here: Prometheus refuses a missing one as `bad_data`, in its
// words, which the handlers answer.
export const InstantQueryParams = Schema.Struct({
  query: optional,
  time: optional,
  timeout: optional,
  limit: optional,
  /** sluice's own: `true` answers the SQL each selector compiles to, and runs none of it. */
  explain: optional
})
export const RangeQueryParams = Schema.Struct({
  query: optional,
  start: optional,
  end: optional,
  step: optional,
  timeout: optional,
  limit: optional,
  explain: optional
})
export const SeriesParams = Schema.Struct({
  "match[]": matchers,
  start: optional,
  end: optional,
  limit: optional
})
export const LabelsParams = Schema.Struct({
  "match[]": matchers,
  start: optional,
  end: optional,
  limit: optional
})
export const ExemplarsParams = Schema.Struct({ query: optional, start: optional, end: optional })
/** Prometheus's filters of `/rules`; sluice has no rules, so they select among none. */
export const RulesParams = Schema.Struct({
  type: optional,
  "rule_name[]": matchers,
  "rule_group[]": matchers,
  "file[]": matchers,
  "match[]": matchers,
  exclude_alerts: optional
})
export const MetadataParams = Schema.Struct({
  metric: optional,
  limit: optional,
  limit_per_metric: optional
})

const form = "The `application/x-www-form-urlencoded` body carries the parameters of the GET form."

const read = <const Name extends string>(name: Name, path: `/${string}`) =>
  HttpApiEndpoint.get(name, path).addSuccess(PrometheusResponse)

// Read raw: a form body may repeat `match[]`, which a payload schema cannot say.
const readByForm = <const Name extends string>(name: Name, path: `/${string}`) =>
  HttpApiEndpoint.post(`${name}Form`, path)
    .setUrlParams(DataScopeParams)
    .addSuccess(PrometheusResponse)
    .annotate(OpenApi.Description, form)

const withScope = <Fields extends Schema.Struct.Fields>(params: Schema.Struct<Fields>) =>
  Schema.Struct({ ...DataScopeParams.fields, ...params.fields })

const labelName = HttpApiSchema.param("name", Schema.String)

/**
 * The Prometheus HTTP API, so Grafana's Prometheus data source and
 * promtool work unchanged; the metrics-app must be installed.
 */
export class MetricsCompatApi extends HttpApiGroup.make("metricsCompat")
  .add(
    HttpApiEndpoint.post("write", "/write")
      .setUrlParams(DataScopeParams)
      .addSuccess(HttpApiSchema.NoContent)
      .annotate(
        OpenApi.Description,
        "Remote write 1.0: a snappy-compressed protobuf `WriteRequest`, read raw."
      )
  )
  .add(read("query", "/query").setUrlParams(withScope(InstantQueryParams)))
  .add(readByForm("query", "/query"))
  .add(read("queryRange", "/query_range").setUrlParams(withScope(RangeQueryParams)))
  .add(readByForm("queryRange", "/query_range"))
  .add(read("series", "/series").setUrlParams(withScope(SeriesParams)))
  .add(readByForm("series", "/series"))
  .add(read("labels", "/labels").setUrlParams(withScope(LabelsParams)))
  .add(readByForm("labels", "/labels"))
  .add(
    HttpApiEndpoint.get("labelValues")`/label/${labelName}/values`
      .setUrlParams(withScope(LabelsParams))
      .addSuccess(PrometheusResponse)
  )
  .add(
    HttpApiEndpoint.get("metadata", "/metadata")
      .setUrlParams(withScope(MetadataParams))
      .addSuccess(PrometheusResponse)
  )
  .add(
    read("queryExemplars", "/query_exemplars")
      .setUrlParams(withScope(ExemplarsParams))
      .addSuccess(HttpApiSchema.NoContent)
      .annotate(
        OpenApi.Description,
        "Remote write's exemplars are not stored: a query naming series answers none; one naming none, no content."
      )
  )
  .add(readByForm("queryExemplars", "/query_exemplars").addSuccess(HttpApiSchema.NoContent))
  .add(
    read("rules", "/rules")
      .setUrlParams(withScope(RulesParams))
      .annotate(
        OpenApi.Description,
        "sluice evaluates no recording or alerting rules: no groups, as Prometheus without rule files."
      )
  )
  .add(
    read("alerts", "/alerts")
      .setUrlParams(DataScopeParams)
      .annotate(OpenApi.Description, "No alerting rules, so no alerts.")
  )
  .add(HttpApiEndpoint.get("buildinfo", "/status/buildinfo").addSuccess(PrometheusResponse))
  .add(
    HttpApiEndpoint.get("formatQuery", "/format_query")
      .setUrlParams(Schema.Struct({ query: Schema.optional(Schema.String) }))
      .addSuccess(PrometheusResponse)
  )
  .add(
    HttpApiEndpoint.post("formatQueryForm", "/format_query")
      .addSuccess(PrometheusResponse)
      .annotate(OpenApi.Description, form)
  )
  .prefix("/metrics-compat/api/v1")
  // PromQL failures answer Prometheus's own error shape; these are sluice's (auth, app gate, body).
  .addError(ErrorWire.BadRequest)
  .addError(ErrorWire.Forbidden)
  .addError(ErrorWire.NotFound)
  .addError(ErrorWire.Conflict)
  .addError(ErrorWire.ClusterPaused)
  .addError(ErrorWire.PayloadTooLarge)
  .addError(ErrorWire.UnsupportedMediaType)
  .addError(ErrorWire.Unavailable)
  .addError(ErrorWire.AppNotInstalled)
  .addError(ErrorWire.DatabaseNotFound)
  .addError(ErrorWire.InvalidDatabaseName)
  .middleware(Authentication)
  .annotate(OpenApi.Description, "Prometheus-compatible metrics (metrics-app)") {}
