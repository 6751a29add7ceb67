import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { ErrorWire } from "../Errors.js"
import { Authentication } from "../Identity.js"
import { ScopeParams } from "./Scope.js"

/** Who sent a request: `x-service-client`, else `api`. */
export const LogSource = Schema.Literal("ui", "cli", "api")
export type LogSource = typeof LogSource.Type

/** Derived from the status code. */
export const LogLevel = Schema.Literal("success", "warning", "error")
export type LogLevel = typeof LogLevel.Type

export class LoggedError extends Schema.Class<LoggedError>("LoggedError")({
  code: Schema.String,
  message: Schema.String,
  hint: Schema.String
}) {}

/** One recorded API request (decisions.md §8). Response bodies are never recorded. */
export class LogEntry extends Schema.Class<LogEntry>("LogEntry")({
  /** The request's span id. */
  id: Schema.String,
  trace_id: Schema.String,
  created_at: Schema.String,
  method: Schema.String,
  path: Schema.String,
  /** The matched route pattern; null when no route matched. */
  route: Schema.NullOr(Schema.String),
  status_code: Schema.Int,
  level: LogLevel,
  source: LogSource,
  duration_ms: Schema.Number,
  user_agent: Schema.NullOr(Schema.String),
  client_version: Schema.NullOr(Schema.String),
  request_size_bytes: Schema.Int,
  response_size_bytes: Schema.Int,
  database: Schema.NullOr(Schema.String),
  key_name: Schema.NullOr(Schema.String),
  user_email: Schema.NullOr(Schema.String),
  organization: Schema.NullOr(Schema.String),
  cluster: Schema.NullOr(Schema.String),
  url_query: Schema.NullOr(Schema.String),
  /** Textual bodies up to 8 KiB, secrets redacted. */
  request_body: Schema.NullOr(Schema.String),
  error: Schema.NullOr(LoggedError)
}) {}

const commaSeparated = <A, I extends string>(item: Schema.Schema<A, I>) =>
  Schema.compose(Schema.split(","), Schema.Array(item))

const Count = Schema.NumberFromString.pipe(Schema.int(), Schema.nonNegative())

export const LogsParams = Schema.Struct({
  ...ScopeParams.fields,
  /** Inclusive. */
  start_time: Schema.optional(Schema.DateTimeUtc),
  /** Inclusive. */
  end_time: Schema.optional(Schema.DateTimeUtc),
  limit: Schema.optionalWith(Count.pipe(Schema.between(1, 200)), { default: () => 50 }),
  offset: Schema.optionalWith(Count, { default: () => 0 }),
  /** Free text over id, method, path, status, source, user agent and errors. */
  search: Schema.optional(Schema.String),
  methods: Schema.optional(commaSeparated(Schema.Uppercase)),
  status_codes: Schema.optional(commaSeparated(Count)),
  sources: Schema.optional(commaSeparated(LogSource)),
  /** Exact match. */
  user_agent: Schema.optional(Schema.String)
})

export class LogsPage extends Schema.Class<LogsPage>("LogsPage")({
  logs: Schema.Array(LogEntry),
  has_more: Schema.Boolean,
  /** The `offset` of the next page; null on the last one. */
  next_offset: Schema.NullOr(Schema.Int)
}) {}

/** The service's own HTTP request log, newest first, for the caller's cluster. */
export class LogsApi extends HttpApiGroup.make("logs")
  .add(HttpApiEndpoint.get("list", "/v1/logs").setUrlParams(LogsParams).addSuccess(LogsPage))
  .addError(ErrorWire.BadRequest)
  .addError(ErrorWire.Forbidden)
  .addError(ErrorWire.NotFound)
  .middleware(Authentication)
  .annotate(OpenApi.Description, "Request logs") {}
