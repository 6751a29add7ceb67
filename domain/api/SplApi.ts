import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { ErrorWire } from "../Errors.js"
import { Authentication } from "../Identity.js"
import { QueryId, resultFields } from "./QueryApi.js"
import { DataScopeParams } from "./Scope.js"

/**
 * Epoch seconds, `now`, or a relative value such as `-30m`, `-24h`, `-7d`, optionally
 * snapped down to the start of a unit (`-1d@d`, `@h`, `@w1`); units are checked when
 * the bound is resolved.
 */
export const SplTime = Schema.String.pipe(
  Schema.pattern(/^(now|\d+(\.\d+)?|[+-]\d*[a-z]+(@[a-z]+\d?)?|@[a-z]+\d?)$/, {
    message: () =>
      "a time bound is epoch seconds, now, or a relative value such as -30m, -24h, -7d@d"
  })
)

export class SplCommand extends Schema.Class<SplCommand>("SplCommand")({
  name: Schema.String,
  /** Where in a pipeline the command may stand, e.g. `first`, `later`. */
  positions: Schema.Array(Schema.String)
}) {}

/** The static language manifest; database columns come from the table description. */
export class SplCapabilities extends Schema.Class<SplCapabilities>("SplCapabilities")({
  commands: Schema.Array(SplCommand),
  functions: Schema.Array(Schema.String),
  operators: Schema.Array(Schema.String),
  keywords: Schema.Array(Schema.String),
  literals: Schema.Array(Schema.String),
  timechart_span_units: Schema.Array(Schema.String),
  builtin_fields: Schema.Array(Schema.String),
  /** Compiler limits by name, such as the row cap and the number of measured stages. */
  limits: Schema.Record({ key: Schema.String, value: Schema.Number })
}) {}

export class SplSearchRequest extends Schema.Class<SplSearchRequest>("SplSearchRequest")({
  spl: Schema.String,
  earliest: Schema.optional(SplTime),
  latest: Schema.optional(SplTime),
  include_field_statistics: Schema.optionalWith(Schema.Boolean, { default: () => false }),
  /** Chosen by the client so that it can cancel with `POST /v1/query/cancel`. */
  query_id: Schema.optional(QueryId),
  /** Compile only: answer each stage's SQL and the whole statement, running nothing. */
  explain: Schema.optionalWith(Schema.Boolean, { default: () => false })
}) {}

/** One pipeline segment, in source order. */
export class SplStage extends Schema.Class<SplStage>("SplStage")({
  command: Schema.String,
  expression: Schema.String,
  /** Rows after this stage, capped at 10,000; null when not measured. */
  output_rows: Schema.NullOr(Schema.Int),
  /** A 10,001st row proved the true count larger than `output_rows`. */
  truncated: Schema.Boolean
}) {}

export class TimelineBucket extends Schema.Class<TimelineBucket>("TimelineBucket")({
  /** ISO 8601 start of the bucket. */
  time: Schema.String,
  count: Schema.Int
}) {}

export class TopValue extends Schema.Class<TopValue>("TopValue")({
  value: Schema.Unknown,
  count: Schema.Int
}) {}

/** Over the whole filtered event population, not only the returned rows. */
export class FieldStatistics extends Schema.Class<FieldStatistics>("FieldStatistics")({
  field: Schema.String,
  type: Schema.String,
  total: Schema.Int,
  non_null: Schema.Int,
  coverage: Schema.Number,
  distinct: Schema.Int,
  /** The five most common values: ranked hints, not exhaustive. */
  top_values: Schema.Array(TopValue),
  /** Indexes or tables where the field was found. */
  sources: Schema.Array(Schema.String)
}) {}

/** One stage as compiled: the SQL whose rows are that stage's output. */
export class SplExplainedStage extends Schema.Class<SplExplainedStage>("SplExplainedStage")({
  command: Schema.String,
  expression: Schema.String,
  sql: Schema.String
}) {}

/** What `explain: true` answers: each stage's SQL and the whole search's. */
export class SplExplain extends Schema.Class<SplExplain>("SplExplain")({
  stages: Schema.Array(SplExplainedStage),
  sql: Schema.String
}) {}

export class SplSearchResult extends Schema.Class<SplSearchResult>("SplSearchResult")({
  ...resultFields,
  spl: Schema.String,
  /** Chronological, zero-filled across the window, bounded in length. */
  timeline: Schema.Array(TimelineBucket),
  result_kind: Schema.Literal("events", "statistics"),
  truncated: Schema.Boolean,
  raw_events: Schema.Array(Schema.Record({ key: Schema.String, value: Schema.Unknown })),
  stages: Schema.Array(SplStage),
  /** Only when `include_field_statistics` was true. */
  field_statistics: Schema.optional(Schema.Array(FieldStatistics)),
  /** Only when `explain` was true: nothing ran, so the rows, counts and timeline are empty. */
  explain: Schema.optional(SplExplain)
}) {}

/** The SPL manifest: static, so it needs neither a selector nor a credential. */
export class SplCapabilitiesApi extends HttpApiGroup.make("splCapabilities")
  .add(HttpApiEndpoint.get("capabilities", "/v1/spl/capabilities").addSuccess(SplCapabilities))
  .annotate(OpenApi.Description, "SPL language manifest") {}

/**
 * Read-only SPL over `spl_events` of the selected database, compiled to SQL inside the
 * service; the spl-app must be installed. Unsupported commands are a 400, never SQL.
 */
export class SplApi extends HttpApiGroup.make("spl")
  .add(
    HttpApiEndpoint.post("search", "/v1/spl/search")
      .setUrlParams(DataScopeParams)
      .setPayload(SplSearchRequest)
      .addSuccess(SplSearchResult)
      // A paused cluster, or a query id already running.
      .addError(ErrorWire.Conflict)
      .addError(ErrorWire.ClusterPaused)
      .addError(ErrorWire.QueryRefused)
      .addError(ErrorWire.SplRefused)
  )
  .addError(ErrorWire.BadRequest)
  .addError(ErrorWire.Forbidden)
  .addError(ErrorWire.NotFound)
  .addError(ErrorWire.Unavailable)
  .addError(ErrorWire.AppNotInstalled)
  .addError(ErrorWire.DatabaseNotFound)
  .addError(ErrorWire.InvalidDatabaseName)
  .middleware(Authentication)
  .annotate(OpenApi.Description, "SPL search") {}
