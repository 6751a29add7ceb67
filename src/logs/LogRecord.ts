/** One request-log row as stored in the control plane, and its wire form. */
import { Schema } from "effect"
import { LogEntry, LoggedError, LogLevel, LogSource } from "../../domain/api/LogsApi.js"
import { ClusterId, OrganizationId } from "../../domain/Ids.js"

const NullableString = Schema.NullOr(Schema.String)

export class LogRecord extends Schema.Class<LogRecord>("LogRecord")({
  id: Schema.String,
  trace_id: Schema.String,
  created_at: Schema.DateFromSelf,
  /** The scope ids that listing filters on; null when the request never authenticated. */
  organization_id: Schema.NullOr(OrganizationId),
  cluster_id: Schema.NullOr(ClusterId),
  organization: NullableString,
  cluster: NullableString,
  method: Schema.String,
  path: Schema.String,
  route: NullableString,
  status_code: Schema.Int,
  level: LogLevel,
  source: LogSource,
  duration_ms: Schema.Number,
  user_agent: NullableString,
  client_version: NullableString,
  request_size_bytes: Schema.Number,
  response_size_bytes: Schema.Number,
  database: NullableString,
  key_name: NullableString,
  user_email: NullableString,
  url_query: NullableString,
  request_body: NullableString,
  error_code: NullableString,
  error_message: NullableString,
  error_hint: NullableString
}) {}

export const levelOf = (status: number): LogLevel =>
  status >= 500 ? "error" : status >= 400 ? "warning" : "success"

export const toLogEntry = (record: LogRecord) =>
  new LogEntry({
    id: record.id,
    trace_id: record.trace_id,
    created_at: record.created_at.toISOString(),
    method: record.method,
    path: record.path,
    route: record.route,
    status_code: record.status_code,
    level: record.level,
    source: record.source,
    duration_ms: record.duration_ms,
    user_agent: record.user_agent,
    client_version: record.client_version,
    request_size_bytes: record.request_size_bytes,
    response_size_bytes: record.response_size_bytes,
    database: record.database,
    key_name: record.key_name,
    user_email: record.user_email,
    organization: record.organization,
    cluster: record.cluster,
    url_query: record.url_query,
    request_body: record.request_body,
    error:
      record.error_code === null
        ? null
        : new LoggedError({
            code: record.error_code,
            message: record.error_message ?? "",
            hint: record.error_hint ?? ""
          })
  })
