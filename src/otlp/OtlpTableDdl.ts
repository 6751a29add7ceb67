/**
 * Column lists of the OpenTelemetry Collector ClickHouse exporter's tables (its
 * `otel_traces`, `otel_logs` and `otel_metrics_*` layout), so queries written for that
 * schema run here unchanged. Sorting and partitioning follow the exporter too.
 */

const MAP = "Map(LowCardinality(String), String)"

export const TRACES_COLUMNS = `
  Timestamp DateTime64(9) CODEC(Delta(8), ZSTD(1)),
  TraceId String CODEC(ZSTD(1)),
  SpanId String CODEC(ZSTD(1)),
  ParentSpanId String CODEC(ZSTD(1)),
  TraceState String CODEC(ZSTD(1)),
  SpanName LowCardinality(String) CODEC(ZSTD(1)),
  SpanKind LowCardinality(String) CODEC(ZSTD(1)),
  ServiceName LowCardinality(String) CODEC(ZSTD(1)),
  ResourceAttributes ${MAP} CODEC(ZSTD(1)),
  ScopeName String CODEC(ZSTD(1)),
  ScopeVersion String CODEC(ZSTD(1)),
  SpanAttributes ${MAP} CODEC(ZSTD(1)),
  Duration UInt64 CODEC(T64, ZSTD(1)),
  StatusCode LowCardinality(String) CODEC(ZSTD(1)),
  StatusMessage String CODEC(ZSTD(1)),
  Events Nested (Timestamp DateTime64(9), Name LowCardinality(String), Attributes ${MAP}) CODEC(ZSTD(1)),
  Links Nested (TraceId String, SpanId String, TraceState String, Attributes ${MAP}) CODEC(ZSTD(1))`

export const TRACES_INDEXES = `
  INDEX idx_trace_id TraceId TYPE bloom_filter(0.001) GRANULARITY 1,
  INDEX idx_span_attr_key mapKeys(SpanAttributes) TYPE bloom_filter(0.01) GRANULARITY 1,
  INDEX idx_duration Duration TYPE minmax GRANULARITY 1`

export const TRACES_PARTITION = "toDate(Timestamp)"
export const TRACES_ORDER = "(ServiceName, SpanName, toDateTime(Timestamp), Timestamp)"

export const LOGS_COLUMNS = `
  Timestamp DateTime64(9) CODEC(Delta(8), ZSTD(1)),
  TimestampTime DateTime DEFAULT toDateTime(Timestamp),
  TraceId String CODEC(ZSTD(1)),
  SpanId String CODEC(ZSTD(1)),
  TraceFlags UInt8,
  SeverityText LowCardinality(String) CODEC(ZSTD(1)),
  SeverityNumber UInt8,
  ServiceName LowCardinality(String) CODEC(ZSTD(1)),
  Body String CODEC(ZSTD(1)),
  ResourceSchemaUrl LowCardinality(String) CODEC(ZSTD(1)),
  ResourceAttributes ${MAP} CODEC(ZSTD(1)),
  ScopeSchemaUrl LowCardinality(String) CODEC(ZSTD(1)),
  ScopeName String CODEC(ZSTD(1)),
  ScopeVersion LowCardinality(String) CODEC(ZSTD(1)),
  ScopeAttributes ${MAP} CODEC(ZSTD(1)),
  LogAttributes ${MAP} CODEC(ZSTD(1)),
  EventName String CODEC(ZSTD(1))`

export const LOGS_INDEXES = `
  INDEX idx_trace_id TraceId TYPE bloom_filter(0.001) GRANULARITY 1,
  INDEX idx_log_attr_key mapKeys(LogAttributes) TYPE bloom_filter(0.01) GRANULARITY 1`

export const LOGS_PARTITION = "toDate(TimestampTime)"
export const LOGS_ORDER = "(ServiceName, TimestampTime, Timestamp)"

const METRIC_COMMON = `
  ResourceAttributes ${MAP} CODEC(ZSTD(1)),
  ResourceSchemaUrl String CODEC(ZSTD(1)),
  ScopeName String CODEC(ZSTD(1)),
  ScopeVersion String CODEC(ZSTD(1)),
  ScopeAttributes ${MAP} CODEC(ZSTD(1)),
  ScopeDroppedAttrCount UInt32 CODEC(ZSTD(1)),
  ScopeSchemaUrl String CODEC(ZSTD(1)),
  ServiceName LowCardinality(String) CODEC(ZSTD(1)),
  MetricName String CODEC(ZSTD(1)),
  MetricDescription String CODEC(ZSTD(1)),
  MetricUnit String CODEC(ZSTD(1)),
  Attributes ${MAP} CODEC(ZSTD(1)),
  StartTimeUnix DateTime64(9) CODEC(Delta, ZSTD(1)),
  TimeUnix DateTime64(9) CODEC(Delta, ZSTD(1)),`

const EXEMPLARS = `
  Exemplars Nested (FilteredAttributes ${MAP}, TimeUnix DateTime64(9), Value Float64, SpanId String, TraceId String) CODEC(ZSTD(1)),`

const FLAGS = `
  Flags UInt32 CODEC(ZSTD(1))`

const TEMPORALITY = `,
  AggregationTemporality Int32 CODEC(ZSTD(1))`

export const METRIC_KINDS = [
  "gauge",
  "sum",
  "histogram",
  "exponential_histogram",
  "summary"
] as const
export type MetricKind = (typeof METRIC_KINDS)[number]

export const METRIC_COLUMNS: Record<MetricKind, string> = {
  gauge: `${METRIC_COMMON}
  Value Float64 CODEC(ZSTD(1)),${EXEMPLARS}${FLAGS}`,
  sum: `${METRIC_COMMON}
  Value Float64 CODEC(ZSTD(1)),${EXEMPLARS}${FLAGS}${TEMPORALITY},
  IsMonotonic Boolean CODEC(Delta, ZSTD(1))`,
  histogram: `${METRIC_COMMON}
  Count UInt64 CODEC(Delta, ZSTD(1)),
  Sum Float64 CODEC(ZSTD(1)),
  BucketCounts Array(UInt64) CODEC(ZSTD(1)),
  ExplicitBounds Array(Float64) CODEC(ZSTD(1)),${EXEMPLARS}${FLAGS},
  Min Float64 CODEC(ZSTD(1)),
  Max Float64 CODEC(ZSTD(1))${TEMPORALITY}`,
  exponential_histogram: `${METRIC_COMMON}
  Count UInt64 CODEC(Delta, ZSTD(1)),
  Sum Float64 CODEC(ZSTD(1)),
  Scale Int32 CODEC(ZSTD(1)),
  ZeroCount UInt64 CODEC(ZSTD(1)),
  PositiveOffset Int32 CODEC(ZSTD(1)),
  PositiveBucketCounts Array(UInt64) CODEC(ZSTD(1)),
  NegativeOffset Int32 CODEC(ZSTD(1)),
  NegativeBucketCounts Array(UInt64) CODEC(ZSTD(1)),${EXEMPLARS}${FLAGS},
  Min Float64 CODEC(ZSTD(1)),
  Max Float64 CODEC(ZSTD(1))${TEMPORALITY}`,
  summary: `${METRIC_COMMON}
  Count UInt64 CODEC(Delta, ZSTD(1)),
  Sum Float64 CODEC(ZSTD(1)),
  ValueAtQuantiles Nested (Quantile Float64, Value Float64) CODEC(ZSTD(1)),${FLAGS}`
}

export const METRICS_PARTITION = "toDate(TimeUnix)"
export const METRICS_ORDER = "(ServiceName, MetricName, toUnixTimestamp64Nano(TimeUnix))"
