/**
 * The OTLP app's metrics: one row per data point, in the table of its metric's type
 * (gauge, sum, histogram, exponential histogram, summary). `?transform=` is `flat/`.
 */
import type { OtlpExemplar, OtlpMetric, OtlpMetricsRequest } from "../../../domain/OtlpModel.js"
import type {
  ExponentialHistogramRow,
  Flattened,
  GaugeRow,
  HistogramRow,
  MetricRows,
  SumRow,
  SummaryRow
} from "../../../domain/OtlpTransforms.js"
import { attributeMap, serviceNameOf } from "./AttributeText.js"
import { idProblem, Rejections, SPAN_ID_BYTES, TRACE_ID_BYTES } from "./Ids.js"
import type { MetricContext } from "./MetricPoints.js"
import { exponentialHistogramRow, gaugeRow, histogramRow, summaryRow } from "./MetricPoints.js"

interface Sink {
  readonly gauge: Array<GaugeRow>
  readonly sum: Array<SumRow>
  readonly histogram: Array<HistogramRow>
  readonly exponential_histogram: Array<ExponentialHistogramRow>
  readonly summary: Array<SummaryRow>
}

/** Exemplar ids are optional, but when present they must be whole ids. */
export const exemplarProblem = (list: ReadonlyArray<OtlpExemplar>): string | undefined => {
  for (const e of list) {
    const problem =
      idProblem("exemplar trace_id", e.traceId, TRACE_ID_BYTES, true) ??
      idProblem("exemplar span_id", e.spanId, SPAN_ID_BYTES, true)
    if (problem !== undefined) return problem
  }
  return undefined
}

const addMetric = (
  sink: Sink,
  rejections: Rejections,
  metric: OtlpMetric,
  context: MetricContext
) => {
  const what = `data point of '${metric.name}'`
  const keep = <P extends { readonly exemplars?: ReadonlyArray<OtlpExemplar> }>(point: P) => {
    const problem = exemplarProblem(point.exemplars ?? [])
    if (problem !== undefined) rejections.reject(what, problem)
    return problem === undefined
  }
  const data = metric.data
  switch (data.case) {
    case "gauge":
      for (const p of data.value.dataPoints) if (keep(p)) sink.gauge.push(gaugeRow(context, p))
      return
    case "sum":
      for (const p of data.value.dataPoints)
        if (keep(p))
          sink.sum.push({
            ...gaugeRow(context, p),
            AggregationTemporality: data.value.aggregationTemporality,
            IsMonotonic: data.value.isMonotonic
          })
      return
    case "histogram":
      for (const p of data.value.dataPoints)
        if (keep(p))
          sink.histogram.push(histogramRow(context, p, data.value.aggregationTemporality))
      return
    case "exponentialHistogram":
      for (const p of data.value.dataPoints)
        if (keep(p))
          sink.exponential_histogram.push(
            exponentialHistogramRow(context, p, data.value.aggregationTemporality)
          )
      return
    case "summary":
      for (const p of data.value.dataPoints) sink.summary.push(summaryRow(context, p))
      return
    case undefined:
      // No data, so no points to count: the metric itself is the rejected record.
      rejections.reject(`metric '${metric.name}'`, "it has no data (gauge, sum, histogram …)")
  }
}

export const flattenMetrics = (request: OtlpMetricsRequest): Flattened<MetricRows> => {
  const sink: Sink = { gauge: [], sum: [], histogram: [], exponential_histogram: [], summary: [] }
  const rejections = new Rejections()
  for (const resourceMetrics of request.resourceMetrics) {
    const attributes = resourceMetrics.resource?.attributes
    const ResourceAttributes = attributeMap(attributes)
    const ServiceName = serviceNameOf(attributes)
    for (const scopeMetrics of resourceMetrics.scopeMetrics) {
      const scope = scopeMetrics.scope
      const ScopeAttributes = attributeMap(scope?.attributes)
      for (const metric of scopeMetrics.metrics) {
        addMetric(sink, rejections, metric, {
          ResourceAttributes,
          ResourceSchemaUrl: resourceMetrics.schemaUrl,
          ScopeName: scope?.name ?? "",
          ScopeVersion: scope?.version ?? "",
          ScopeAttributes,
          ScopeDroppedAttrCount: scope?.droppedAttributesCount ?? 0,
          ScopeSchemaUrl: scopeMetrics.schemaUrl,
          ServiceName,
          MetricName: metric.name,
          MetricDescription: metric.description,
          MetricUnit: metric.unit
        })
      }
    }
  }
  return { rows: sink, rejected: rejections.count, message: rejections.message("data points") }
}
