/** Rows of each `otel_metrics_*` table from one data point (no I/O, no checks). */
import type {
  OtlpExemplar,
  OtlpExponentialHistogramDataPoint,
  OtlpHistogramDataPoint,
  OtlpNumberDataPoint,
  OtlpNumberValue,
  OtlpPointBase,
  OtlpSummaryDataPoint
} from "../../../domain/OtlpModel.js"
import type {
  ExemplarColumns,
  ExponentialHistogramRow,
  GaugeRow,
  HistogramRow,
  MetricRowBase,
  SummaryRow
} from "../../../domain/OtlpTransforms.js"
import { attributeMap } from "./AttributeText.js"
import { hex } from "./Ids.js"

/** The columns a metric's points share (resource, scope, metric). */
export type MetricContext = Omit<
  MetricRowBase,
  "Attributes" | "StartTimeUnix" | "TimeUnix" | "Flags"
>

/** A number value as a double, as the exporter stores it (`Float64`). */
export const numberOf = (value: OtlpNumberValue): number =>
  value.case === "asDouble" ? value.value : value.case === "asInt" ? Number(value.value) : 0

const base = (context: MetricContext, point: OtlpPointBase): MetricRowBase => ({
  ...context,
  Attributes: attributeMap(point.attributes),
  StartTimeUnix: point.startTimeUnixNano,
  TimeUnix: point.timeUnixNano,
  Flags: point.flags
})

const exemplars = (list: ReadonlyArray<OtlpExemplar>): ExemplarColumns => ({
  "Exemplars.FilteredAttributes": list.map((e) => attributeMap(e.filteredAttributes)),
  "Exemplars.TimeUnix": list.map((e) => e.timeUnixNano),
  "Exemplars.Value": list.map((e) => numberOf(e.value)),
  "Exemplars.SpanId": list.map((e) => hex(e.spanId)),
  "Exemplars.TraceId": list.map((e) => hex(e.traceId))
})

export const gaugeRow = (context: MetricContext, point: OtlpNumberDataPoint): GaugeRow => ({
  ...base(context, point),
  ...exemplars(point.exemplars),
  Value: numberOf(point.value)
})

export const histogramRow = (
  context: MetricContext,
  point: OtlpHistogramDataPoint,
  temporality: number
): HistogramRow => ({
  ...base(context, point),
  ...exemplars(point.exemplars),
  Count: point.count,
  Sum: point.sum ?? 0,
  BucketCounts: point.bucketCounts,
  ExplicitBounds: point.explicitBounds,
  Min: point.min ?? 0,
  Max: point.max ?? 0,
  AggregationTemporality: temporality
})

export const exponentialHistogramRow = (
  context: MetricContext,
  point: OtlpExponentialHistogramDataPoint,
  temporality: number
): ExponentialHistogramRow => ({
  ...base(context, point),
  ...exemplars(point.exemplars),
  Count: point.count,
  Sum: point.sum ?? 0,
  Scale: point.scale,
  ZeroCount: point.zeroCount,
  PositiveOffset: point.positive?.offset ?? 0,
  PositiveBucketCounts: point.positive?.bucketCounts ?? [],
  NegativeOffset: point.negative?.offset ?? 0,
  NegativeBucketCounts: point.negative?.bucketCounts ?? [],
  Min: point.min ?? 0,
  Max: point.max ?? 0,
  AggregationTemporality: temporality
})

export const summaryRow = (context: MetricContext, point: OtlpSummaryDataPoint): SummaryRow => ({
  ...base(context, point),
  Count: point.count,
  Sum: point.sum,
  "ValueAtQuantiles.Quantile": point.quantileValues.map((q) => q.quantile),
  "ValueAtQuantiles.Value": point.quantileValues.map((q) => q.value)
})
