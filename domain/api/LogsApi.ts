import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { ParseResult, Schema } from "effect"
import { ErrorWire } from "../Errors.js"
import { Authentication } from "../Identity.js"
import { DataScopeParams } from "./Scope.js"

/** Who sent a request: `x-service-client`, else `api`. */
export const LogSource = Schema.Literal("ui", "cli", "api")
export type LogSource = typeof LogSource.Type

/** Derived from the status code. */
export const LogLevel = Schema.Literal("success", "warning", "error")
export type LogLevel = typeof LogLevel.Type

/** One recorded API request: every field on every entry, strings never
 * null (`""` when empty), durations in whole milliseconds. Response bodies are never
 * recorded. */
export class LogEntry extends Schema.Class<LogEntry>("LogEntry")({
  /** The request's span id (also `uuid` and `span_id`). */
  id: Schema.String,
  uuid: Schema.String,
  /** From an incoming `traceparent` when present. */
  trace_id: Schema.String,
  span_id: Schema.String,
  /** The caller's span from `traceparent`; `""` without one. */
  parent_span_id: Schema.String,
  /** When the request arrived, ISO 8601; `date` and `time` are the same instant. */
  created_at: Schema.String,
  date: Schema.String,
  time: Schema.String,
  level: LogLevel,
  method: Schema.String,
  /** The `Host` the request was sent to. */
  host: Schema.String,
  path: Schema.String,
  pathname: Schema.String,
  /** The matched route pattern; `""` when no route matched. */
  route: Schema.String,
  /** The query string, secrets redacted. */
  url_query: Schema.String,
  status_code: Schema.Int,
  status: Schema.Int,
  duration_ms: Schema.Int,
  latency: Schema.Int,
  /** Time in the endpoint itself, from the caller's authentication (or the route match) on. */
  handler_ms: Schema.Int,
  /** `duration_ms - handler_ms`: reading, routing, authenticating, recording. */
  app_overhead_ms: Schema.Int,
  /** Not computed by this service: always null. */
  percentile: Schema.NullOr(Schema.Number),
  source: LogSource,
  user_agent: Schema.String,
  client_version: Schema.String,
  /** Request headers, secrets redacted. */
  headers: Schema.Record({ key: Schema.String, value: Schema.String }),
  content_encoding: Schema.String,
  request_size_bytes: Schema.Int,
  response_size_bytes: Schema.Int,
  database: Schema.String,
  key_name: Schema.String,
  user_id: Schema.String,
  user_email: Schema.String,
  organization_id: Schema.String,
  organization_name: Schema.String,
  cluster_id: Schema.String,
  cluster_name: Schema.String,
  /** Same as `organization_name` and `cluster_name`, as earlier versions named them. */
  organization: Schema.String,
  cluster: Schema.String,
  /** Textual bodies up to 8 KiB, secrets redacted; `""` otherwise. */
  request_body: Schema.String,
  /** The error's message when the request failed; null otherwise. */
  message: Schema.NullOr(Schema.String),
  /** The error code (`error_code`); `""` when the request succeeded. */
  error: Schema.String,
  error_code: Schema.String,
  error_message: Schema.String,
  error_hint: Schema.String
}) {}

const commaSeparated = <A, I extends string>(item: Schema.Schema<A, I>, description: string) =>
  Schema.compose(Schema.split(","), Schema.Array(item)).annotations({ description })

const Count = Schema.NumberFromString.pipe(Schema.int(), Schema.nonNegative())

const STATUS_CLASS = /^([1-5])xx$/i

/**
 * Status codes, comma-separated, each a code (`404`) or a class (`5xx`: 500 through 599),
 * as the codes. The command line and the console read what a person types with it.
 */
export const StatusCodes = Schema.transformOrFail(
  Schema.String,
  Schema.Array(Schema.Int.pipe(Schema.nonNegative())),
  {
    strict: true,
    decode: (text, _, ast) => {
      const codes: Array<number> = []
      for (const part of text.split(",").map((p) => p.trim())) {
        const family = STATUS_CLASS.exec(part)?.[1]
        if (family !== undefined)
          for (let code = Number(family) * 100; code < Number(family) * 100 + 100; code++)
            codes.push(code)
        else if (/^\d{1,3}$/.test(part)) codes.push(Number(part))
        else
          return ParseResult.fail(
            new ParseResult.Type(
              ast,
              text,
              `${JSON.stringify(part)} is not a status code or class (404, 5xx)`
            )
          )
      }
      return ParseResult.succeed(codes)
    },
    encode: (codes) => ParseResult.succeed(codes.join(","))
  }
).annotations({ description: "Status codes or classes, comma-separated: 404,5xx" })

const described = <S extends Schema.Schema.Any>(schema: S, description: string) =>
  schema.annotations({ description }) as S

const Instant = (description: string) =>
  described(
    Schema.DateTimeUtc,
    `${description}: an ISO 8601 date and time, e.g. 2026-01-31T12:00:00Z`
  )

/**
 * What `GET /v1/logs` filters the cluster's request log by, and its page; each filter's
 * description is the OpenAPI document's.
 */
export const LogsFilter = Schema.Struct({
  start_time: Schema.optional(Instant("From, inclusive")),
  end_time: Schema.optional(Instant("To, inclusive")),
  limit: Schema.optionalWith(Count.pipe(Schema.between(1, 200)), { default: () => 50 }),
  offset: Schema.optionalWith(Count, { default: () => 0 }),
  search: Schema.optional(
    described(
      Schema.String,
      "Free text over id, method, path, status, source, user agent and errors, mixed with the tokens status:success|error, origin:ui|cli|api, type:select|insert|describe|explain, table:a,b and hints:any|none"
    )
  ),
  methods: Schema.optional(
    commaSeparated(Schema.Uppercase, "HTTP methods, comma-separated: GET,POST")
  ),
  status_codes: Schema.optional(StatusCodes),
  sources: Schema.optional(commaSeparated(LogSource, "Sources, comma-separated: ui,cli,api")),
  user_agent: Schema.optional(described(Schema.String, "The User-Agent header, exactly")),
  levels: Schema.optional(
    commaSeparated(LogLevel, "Levels, comma-separated: success,warning,error")
  ),
  host: Schema.optional(described(Schema.String, "Part of the Host header, case-insensitive")),
  paths: Schema.optional(commaSeparated(Schema.String, "Request paths, exactly, comma-separated")),
  min_duration_ms: Schema.optional(
    described(Count, "Shortest duration, whole milliseconds, inclusive")
  ),
  max_duration_ms: Schema.optional(
    described(Count, "Longest duration, whole milliseconds, inclusive")
  ),
  log_databases: Schema.optional(commaSeparated(Schema.String, "Databases, comma-separated"))
})

export const LogsParams = Schema.Struct({
  /**
   * `organization`, `cluster` and `database` select as on every data endpoint: the
   * database must exist and be readable by the caller, and the log stays the cluster's.
   * `log_databases` is the filter on the database each request named.
   */
  ...DataScopeParams.fields,
  ...LogsFilter.fields
})

/** Every parameter `GET /v1/logs` understands; any other is refused rather than ignored. */
export const LOGS_PARAM_NAMES: ReadonlyArray<string> = Object.keys(LogsParams.fields)

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
  .addError(ErrorWire.DatabaseNotFound)
  .addError(ErrorWire.InvalidDatabaseName)
  .middleware(Authentication)
  .annotate(OpenApi.Description, "Request logs") {}
