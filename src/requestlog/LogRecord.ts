/** One request-log row as stored in the control plane, and its wire form. */
import { Option, Schema } from "effect"
import { LogEntry, LogLevel, LogSource } from "../../domain/api/LogsApi.js"
import { ClusterId, OrganizationId } from "../../domain/Ids.js"

const NullableString = Schema.NullOr(Schema.String)

/** What `type:` in a search selects: queries (EXPLAIN ones apart), inserts and describes. */
export const RequestType = Schema.Literal("select", "explain", "insert", "describe", "")
export type RequestType = typeof RequestType.Type

/**
 * A plain struct, not a class: a record is made for every request from values already
 * typed, and stored as it is (its encoded form is itself), so neither the making nor the
 * writing pays a schema's checks; rows read back from the store are decoded.
 */
export const LogRecord = Schema.Struct({
  id: Schema.String,
  trace_id: Schema.String,
  parent_span_id: Schema.String,
  created_at: Schema.DateFromSelf,
  /** The scope ids that listing filters on; null when the request never authenticated. */
  organization_id: Schema.NullOr(OrganizationId),
  cluster_id: Schema.NullOr(ClusterId),
  organization: NullableString,
  cluster: NullableString,
  method: Schema.String,
  host: Schema.String,
  path: Schema.String,
  route: NullableString,
  status_code: Schema.Int,
  level: LogLevel,
  source: LogSource,
  duration_ms: Schema.Number,
  handler_ms: Schema.Number,
  user_agent: NullableString,
  client_version: NullableString,
  /** Redacted request headers as a JSON object of strings. */
  headers: Schema.String,
  content_encoding: Schema.String,
  request_size_bytes: Schema.Number,
  response_size_bytes: Schema.Number,
  database: NullableString,
  key_name: NullableString,
  user_id: NullableString,
  user_email: NullableString,
  url_query: NullableString,
  request_body: NullableString,
  error_code: NullableString,
  error_message: NullableString,
  error_hint: NullableString,
  request_type: RequestType,
  /** The tables the request acted on: a table route's table, a query's FROM/JOIN tables. */
  tables: Schema.Array(Schema.String),
  /** Whether a query answered with hints. */
  has_hints: Schema.Boolean
})
export type LogRecord = typeof LogRecord.Type

export const levelOf = (status: number): LogLevel =>
  status >= 500 ? "error" : status >= 400 ? "warning" : "success"

const decodeHeaders = Schema.decodeUnknownOption(
  Schema.parseJson(Schema.Record({ key: Schema.String, value: Schema.String }))
)

export const toLogEntry = (record: LogRecord) => {
  const createdAt = record.created_at.toISOString()
  const duration = Math.max(0, Math.round(record.duration_ms))
  const handler = Math.min(duration, Math.max(0, Math.round(record.handler_ms)))
  const failed = record.error_code !== null
  return new LogEntry({
    id: record.id,
    uuid: record.id,
    trace_id: record.trace_id,
    span_id: record.id,
    parent_span_id: record.parent_span_id,
    created_at: createdAt,
    date: createdAt,
    time: createdAt,
    level: record.level,
    method: record.method,
    host: record.host,
    path: record.path,
    pathname: record.path,
    route: record.route ?? "",
    url_query: record.url_query ?? "",
    status_code: record.status_code,
    status: record.status_code,
    duration_ms: duration,
    latency: duration,
    handler_ms: handler,
    app_overhead_ms: duration - handler,
    percentile: null,
    source: record.source,
    user_agent: record.user_agent ?? "",
    client_version: record.client_version ?? "",
    headers: Option.getOrElse(decodeHeaders(record.headers), () => ({})),
    content_encoding: record.content_encoding,
    request_size_bytes: record.request_size_bytes,
    response_size_bytes: record.response_size_bytes,
    database: record.database ?? "",
    key_name: record.key_name ?? "",
    user_id: record.user_id ?? "",
    user_email: record.user_email ?? "",
    organization_id: record.organization_id ?? "",
    organization_name: record.organization ?? "",
    cluster_id: record.cluster_id ?? "",
    cluster_name: record.cluster ?? "",
    organization: record.organization ?? "",
    cluster: record.cluster ?? "",
    request_body: record.request_body ?? "",
    message: failed ? (record.error_message ?? "") : null,
    error: record.error_code ?? "",
    error_code: record.error_code ?? "",
    error_message: record.error_message ?? "",
    error_hint: record.error_hint ?? ""
  })
}
