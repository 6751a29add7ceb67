/**
 * PromQL over the metrics-app's series: queries answer as Prometheus
 * would, and selection by label matchers for the series, labels and label-values reads.
 * Statements run through the user-level SQL path (`QueryRunner`: limits, timeout,
 * cancel, read-only). Transports render the results (the Prometheus HTTP API).
 */
import { Context, Schema } from "effect"
import type { Effect, Option } from "effect"
import type { ClusterScope } from "./Authorization.js"
import type { AppNotInstalled, Conflict, Forbidden } from "./Errors.js"
import type { DatabaseName } from "./Ids.js"
import type { QueryFailure } from "./QueryRunner.js"

/** Prometheus's error kinds (`errorType` of its API). */
export const PromQLErrorType = Schema.Literal(
  "bad_data",
  "execution",
  "timeout",
  "canceled",
  "internal"
)

/**
 * A query Prometheus would refuse (`bad_data`) or fail while evaluating (`execution`).
 * `parameter`: the request's input at fault, when it is one (Prometheus's API names it).
 */
export class PromQLError extends Schema.TaggedError<PromQLError>()("PromQLError", {
  errorType: PromQLErrorType,
  message: Schema.String,
  parameter: Schema.optional(Schema.String)
}) {}

export const Labels = Schema.Record({ key: Schema.String, value: Schema.String })

/**
 * Times in milliseconds since the epoch, the step in milliseconds. `timeout` (ms): the
 * query's own bound, within the service's (`SLUICE_QUERY_TIMEOUT_SECONDS`).
 */
export class RangeQuery extends Schema.Class<RangeQuery>("RangeQuery")({
  query: Schema.String,
  start: Schema.Number,
  end: Schema.Number,
  step: Schema.Number,
  timeout: Schema.optional(Schema.Number)
}) {}

export class InstantQuery extends Schema.Class<InstantQuery>("InstantQuery")({
  query: Schema.String,
  time: Schema.Number,
  timeout: Schema.optional(Schema.Number)
}) {}

/** `[time ms, value]`; values may be NaN or infinite. */
export const Point = Schema.Tuple(Schema.Number, Schema.Number)

export const PromQLResult = Schema.Union(
  Schema.TaggedStruct("matrix", {
    series: Schema.Array(Schema.Struct({ labels: Labels, points: Schema.Array(Point) }))
  }),
  Schema.TaggedStruct("vector", {
    time: Schema.Number,
    samples: Schema.Array(Schema.Struct({ labels: Labels, value: Schema.Number }))
  }),
  Schema.TaggedStruct("scalar", { time: Schema.Number, value: Schema.Number }),
  Schema.TaggedStruct("string", { time: Schema.Number, value: Schema.String })
)
export type PromQLResult = typeof PromQLResult.Type

/** Series selectors (`match[]`) and an optional time range in ms. */
export class SeriesSelection extends Schema.Class<SeriesSelection>("SeriesSelection")({
  matchers: Schema.Array(Schema.String),
  start: Schema.optional(Schema.Number),
  end: Schema.optional(Schema.Number)
}) {}

/** The selectors of `query` whose exemplars are asked for, over `[start, end]` in ms (open without them). */
export class ExemplarsQuery extends Schema.Class<ExemplarsQuery>("ExemplarsQuery")({
  query: Schema.String,
  start: Schema.optional(Schema.Number),
  end: Schema.optional(Schema.Number)
}) {}

/** A series' exemplars, as `query_exemplars` answers them (times in ms). */
export const ExemplarSeries = Schema.Struct({
  seriesLabels: Labels,
  exemplars: Schema.Array(
    Schema.Struct({ labels: Labels, value: Schema.Number, timestamp: Schema.Number })
  )
})

/** What remote write said about a metric family (`/metadata`). */
export const MetricMetadata = Schema.Struct({
  type: Schema.String,
  help: Schema.String,
  unit: Schema.String
})

/**
 * What one selector of a query compiles to (`explain=true`): the series selection and
 * the samples read, over the window `(from, to]` in ms that its steps need.
 */
export const ExplainedSelector = Schema.Struct({
  node: Schema.String,
  from: Schema.Number,
  to: Schema.Number,
  sql: Schema.Array(Schema.String)
})

/** A query compiled but not run: its statements, and the result's shape over no samples. */
export const ExplainedQuery = Schema.Struct({
  result: PromQLResult,
  selectors: Schema.Array(ExplainedSelector)
})
export type ExplainedQuery = typeof ExplainedQuery.Type

/** A query's failures; `AppNotInstalled` when the cluster has no metrics-app, whoever calls. */
export type PromQLFailure = PromQLError | QueryFailure | Forbidden | Conflict | AppNotInstalled

export class PromQL extends Context.Tag("sluice/PromQL")<
  PromQL,
  {
    readonly instant: (
      scope: ClusterScope,
      database: DatabaseName,
      query: InstantQuery
    ) => Effect.Effect<PromQLResult, PromQLFailure>
    /** Always a matrix, as `query_range` answers; a scalar is one series without labels. */
    readonly range: (
      scope: ClusterScope,
      database: DatabaseName,
      query: RangeQuery
    ) => Effect.Effect<PromQLResult, PromQLFailure>
    /** The statements a query would run, without running them or reading any sample. */
    readonly explain: (
      scope: ClusterScope,
      database: DatabaseName,
      query: InstantQuery | RangeQuery
    ) => Effect.Effect<ExplainedQuery, PromQLFailure>
    /** The query as Prometheus's `format_query` prints it: its own text, split past 100 bytes a line. */
    readonly format: (query: string) => Effect.Effect<string, PromQLError>
    readonly series: (
      scope: ClusterScope,
      database: DatabaseName,
      selection: SeriesSelection
    ) => Effect.Effect<ReadonlyArray<typeof Labels.Type>, PromQLFailure>
    /** Label names of the selected series (of all series without selectors), sorted. */
    readonly labelNames: (
      scope: ClusterScope,
      database: DatabaseName,
      selection: SeriesSelection
    ) => Effect.Effect<ReadonlyArray<string>, PromQLFailure>
    readonly labelValues: (
      scope: ClusterScope,
      database: DatabaseName,
      name: string,
      selection: SeriesSelection
    ) => Effect.Effect<ReadonlyArray<string>, PromQLFailure>
    /**
     * The exemplars of the series the query's selectors name; none when the query has no
     * selector (Prometheus then answers no content). A query that does not parse, or an
     * end before the start, is `bad_data`.
     */
    readonly exemplars: (
      scope: ClusterScope,
      database: DatabaseName,
      query: ExemplarsQuery
    ) => Effect.Effect<Option.Option<ReadonlyArray<typeof ExemplarSeries.Type>>, PromQLFailure>
    /** The newest metadata per metric family (of one family when `metric` is given). */
    readonly metadata: (
      scope: ClusterScope,
      database: DatabaseName,
      metric: string | undefined
    ) => Effect.Effect<
      Readonly<Record<string, ReadonlyArray<typeof MetricMetadata.Type>>>,
      PromQLFailure
    >
  }
>() {}
