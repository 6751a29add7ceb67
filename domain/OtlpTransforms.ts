/**
 * The OTLP app's flattening: a decoded export request (`OtlpModel.ts`) to rows with the
 * columns of the OpenTelemetry Collector ClickHouse exporter's tables (`otel_traces`,
 * `otel_logs`, `otel_metrics_*`), so queries and dashboards written for that schema work
 * unchanged. (`?transform=otlp-*` writes OTLP/JSON-named rows instead: src/otlp/flat/.)
 * Pure: no I/O. Times are nanoseconds since the epoch as `bigint` (exact), ids are hex,
 * attribute maps hold every value as the exporter renders it to text.
 */
import { Context } from "effect"
import type { OtlpLogsRequest, OtlpMetricsRequest, OtlpTracesRequest } from "./OtlpModel.js"

/** `Map(LowCardinality(String), String)`. */
export type AttributeMap = Readonly<Record<string, string>>

/** One row of `otel_traces`: one span. */
export interface TraceRow {
  readonly Timestamp: bigint
  readonly TraceId: string
  readonly SpanId: string
  readonly ParentSpanId: string
  readonly TraceState: string
  readonly SpanName: string
  /** `Unspecified`, `Internal`, `Server`, `Client`, `Producer`, `Consumer`. */
  readonly SpanKind: string
  readonly ServiceName: string
  readonly ResourceAttributes: AttributeMap
  readonly ScopeName: string
  readonly ScopeVersion: string
  readonly SpanAttributes: AttributeMap
  /** End minus start, in nanoseconds. */
  readonly Duration: bigint
  /** `Unset`, `Ok`, `Error`. */
  readonly StatusCode: string
  readonly StatusMessage: string
  readonly "Events.Timestamp": ReadonlyArray<bigint>
  readonly "Events.Name": ReadonlyArray<string>
  readonly "Events.Attributes": ReadonlyArray<AttributeMap>
  readonly "Links.TraceId": ReadonlyArray<string>
  readonly "Links.SpanId": ReadonlyArray<string>
  readonly "Links.TraceState": ReadonlyArray<string>
  readonly "Links.Attributes": ReadonlyArray<AttributeMap>
}

/** One row of `otel_logs`: one log record. */
export interface LogRow {
  /** The record's time, or its observed time when it has none. */
  readonly Timestamp: bigint
  readonly TraceId: string
  readonly SpanId: string
  readonly TraceFlags: number
  readonly SeverityText: string
  readonly SeverityNumber: number
  readonly ServiceName: string
  readonly Body: string
  readonly ResourceSchemaUrl: string
  readonly ResourceAttributes: AttributeMap
  readonly ScopeSchemaUrl: string
  readonly ScopeName: string
  readonly ScopeVersion: string
  readonly ScopeAttributes: AttributeMap
  readonly LogAttributes: AttributeMap
  readonly EventName: string
}

/** The columns every `otel_metrics_*` row starts with. */
export interface MetricRowBase {
  readonly ResourceAttributes: AttributeMap
  readonly ResourceSchemaUrl: string
  readonly ScopeName: string
  readonly ScopeVersion: string
  readonly ScopeAttributes: AttributeMap
  readonly ScopeDroppedAttrCount: number
  readonly ScopeSchemaUrl: string
  readonly ServiceName: string
  readonly MetricName: string
  readonly MetricDescription: string
  readonly MetricUnit: string
  readonly Attributes: AttributeMap
  readonly StartTimeUnix: bigint
  readonly TimeUnix: bigint
  readonly Flags: number
}

export interface ExemplarColumns {
  readonly "Exemplars.FilteredAttributes": ReadonlyArray<AttributeMap>
  readonly "Exemplars.TimeUnix": ReadonlyArray<bigint>
  readonly "Exemplars.Value": ReadonlyArray<number>
  readonly "Exemplars.SpanId": ReadonlyArray<string>
  readonly "Exemplars.TraceId": ReadonlyArray<string>
}

export interface GaugeRow extends MetricRowBase, ExemplarColumns {
  readonly Value: number
}

export interface SumRow extends GaugeRow {
  readonly AggregationTemporality: number
  readonly IsMonotonic: boolean
}

export interface HistogramRow extends MetricRowBase, ExemplarColumns {
  readonly Count: bigint
  readonly Sum: number
  readonly BucketCounts: ReadonlyArray<bigint>
  readonly ExplicitBounds: ReadonlyArray<number>
  readonly Min: number
  readonly Max: number
  readonly AggregationTemporality: number
}

export interface ExponentialHistogramRow extends MetricRowBase, ExemplarColumns {
  readonly Count: bigint
  readonly Sum: number
  readonly Scale: number
  readonly ZeroCount: bigint
  readonly PositiveOffset: number
  readonly PositiveBucketCounts: ReadonlyArray<bigint>
  readonly NegativeOffset: number
  readonly NegativeBucketCounts: ReadonlyArray<bigint>
  readonly Min: number
  readonly Max: number
  readonly AggregationTemporality: number
}

export interface SummaryRow extends MetricRowBase {
  readonly Count: bigint
  readonly Sum: number
  readonly "ValueAtQuantiles.Quantile": ReadonlyArray<number>
  readonly "ValueAtQuantiles.Value": ReadonlyArray<number>
}

/** Data points by the table suffix they land in (`{table}_gauge` …). */
export interface MetricRows {
  readonly gauge: ReadonlyArray<GaugeRow>
  readonly sum: ReadonlyArray<SumRow>
  readonly histogram: ReadonlyArray<HistogramRow>
  readonly exponential_histogram: ReadonlyArray<ExponentialHistogramRow>
  readonly summary: ReadonlyArray<SummaryRow>
}

/** Rows, and the records left out because they were invalid (OTLP `partialSuccess`). */
export interface Flattened<Rows> {
  readonly rows: Rows
  readonly rejected: number
  /** Why records were rejected; `undefined` when none were. */
  readonly message: string | undefined
}

/** One flattening per signal (traces, logs, metrics). */
export class OtlpTransforms extends Context.Tag("sluice/OtlpTransforms")<
  OtlpTransforms,
  {
    readonly traces: (request: OtlpTracesRequest) => Flattened<ReadonlyArray<TraceRow>>
    readonly logs: (request: OtlpLogsRequest) => Flattened<ReadonlyArray<LogRow>>
    readonly metrics: (request: OtlpMetricsRequest) => Flattened<MetricRows>
  }
>() {}
