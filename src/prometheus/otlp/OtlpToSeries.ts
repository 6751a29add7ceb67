/**
 * An OTLP metrics export as Prometheus series, the way Prometheus's OTLP receiver stores
 * one: gauges and non-monotonic sums as gauges, monotonic sums as `_total` counters,
 * histograms as `_bucket` (cumulative, with `le`), `_sum` and `_count`, summaries as
 * `{quantile}`, `_sum` and `_count`. `service.namespace`/`service.name` make `job` and
 * `service.instance.id` `instance`, the other resource attributes labels of `target_info`;
 * point attributes become labels (OtlpLabels.ts). Delta temporality and exponential
 * histograms have no classic Prometheus form and are left out, as Prometheus leaves them
 * out; a point flagged "no recorded value" is a stale marker.
 */
import type { OtlpAttributes } from "../../../domain/OtlpCommonModel.js"
import type {
  OtlpMetric,
  OtlpMetricsRequest,
  OtlpNumberValue,
  OtlpPointBase
} from "../../../domain/OtlpMetricsModel.js"
import type { DecodedMetadata } from "../RemoteWriteDecode.js"
import { sampleBits, STALE_BITS } from "../SampleBits.js"
import type { Labels } from "../SeriesLabels.js"
import { seriesId } from "../SeriesLabels.js"
import type { SeriesWrite } from "../WriteRequestWriter.js"
import { attributeLabels, IDENTIFYING, resourceLabels } from "./OtlpLabels.js"
import { prometheusName } from "./PrometheusNames.js"

const CUMULATIVE = 2
const NO_RECORDED_VALUE = 1
const TARGET_INFO_INTERVAL = 150_000n

const numberOf = (value: OtlpNumberValue) =>
  value.case === "asDouble" ? value.value : value.case === "asInt" ? Number(value.value) : 0

/** Go's shortest float text, as `le` and `quantile` carry it. */
const boundText = (bound: number) =>
  bound === Infinity ? "+Inf" : bound === -Infinity ? "-Inf" : String(bound)

export interface OtlpSeriesWrite extends SeriesWrite {
  readonly samples: number
}

export const otlpSeries = (request: OtlpMetricsRequest): OtlpSeriesWrite => {
  const byId = new Map<
    string,
    { labels: Labels; timestamps: Array<bigint>; values: Array<bigint> }
  >()
  const metadata = new Map<string, DecodedMetadata>()
  let samples = 0

  const push = (labels: Labels, ms: bigint, bits: bigint) => {
    const id = seriesId(labels)
    let one = byId.get(id)
    if (one === undefined) {
      one = { labels, timestamps: [], values: [] }
      byId.set(id, one)
    }
    one.timestamps.push(ms)
    one.values.push(bits)
    samples++
  }

  // The current resource's earliest and latest point, for its target_info.
  let span: { first: bigint; last: bigint } | undefined
  const add = (labels: Labels, point: OtlpPointBase, value: number) => {
    const ms = point.timeUnixNano / 1_000_000n
    span =
      span === undefined
        ? { first: ms, last: ms }
        : { first: ms < span.first ? ms : span.first, last: ms > span.last ? ms : span.last }
    push(labels, ms, (point.flags & NO_RECORDED_VALUE) !== 0 ? STALE_BITS : sampleBits(value))
  }

  /**
   * `target_info` 1 with the resource's other attributes as labels, when it has some and
   * a job or instance: from its earliest point to its latest every half lookback (150 s)
   * and at the latest, so a query anywhere in between finds it, as Prometheus writes it.
   */
  const targetInfo = (base: Labels, attributes: OtlpAttributes | undefined) => {
    const others = (attributes ?? []).filter((kv) => !IDENTIFYING.includes(kv.key))
    if (span === undefined || others.length === 0 || Object.keys(base).length === 0) return
    const labels = { ...attributeLabels(others), ...base, __name__: "target_info" }
    const one = sampleBits(1)
    for (let t = span.first; t < span.last; t += TARGET_INFO_INTERVAL) push(labels, t, one)
    push(labels, span.last, one)
  }

  const family = (metric: OtlpMetric, name: string, type: string) =>
    metadata.set(name, { metric: name, type, help: metric.description, unit: metric.unit })

  const metricSeries = (metric: OtlpMetric, base: Labels) => {
    // A name of no letters or digits has no Prometheus form.
    if (prometheusName(metric.name, "", "other") === "") return
    const labelsOf = (point: OtlpPointBase, name: string, extra: Labels = {}): Labels => ({
      ...attributeLabels(point.attributes),
      ...base,
      ...extra,
      __name__: name
    })
    const data = metric.data
    switch (data.case) {
      case "gauge":
      case "sum": {
        const counter = data.case === "sum" && data.value.isMonotonic
        if (data.case === "sum" && data.value.aggregationTemporality !== CUMULATIVE) return
        const name = prometheusName(metric.name, metric.unit, counter ? "counter" : "gauge")
        family(metric, name, counter ? "counter" : "gauge")
        for (const point of data.value.dataPoints)
          add(labelsOf(point, name), point, numberOf(point.value))
        return
      }
      case "histogram": {
        if (data.value.aggregationTemporality !== CUMULATIVE) return
        const name = prometheusName(metric.name, metric.unit, "other")
        family(metric, name, "histogram")
        for (const point of data.value.dataPoints) {
          let cumulative = 0
          point.bucketCounts.forEach((count, index) => {
            cumulative += Number(count)
            const bound = point.explicitBounds[index] ?? Infinity
            add(labelsOf(point, `${name}_bucket`, { le: boundText(bound) }), point, cumulative)
          })
          if (point.bucketCounts.length === 0)
            add(labelsOf(point, `${name}_bucket`, { le: "+Inf" }), point, Number(point.count))
          if (point.sum !== undefined) add(labelsOf(point, `${name}_sum`), point, point.sum)
          add(labelsOf(point, `${name}_count`), point, Number(point.count))
        }
        return
      }
      case "summary": {
        const name = prometheusName(metric.name, metric.unit, "other")
        family(metric, name, "summary")
        for (const point of data.value.dataPoints) {
          for (const { quantile, value } of point.quantileValues)
            add(labelsOf(point, name, { quantile: boundText(quantile) }), point, value)
          add(labelsOf(point, `${name}_sum`), point, point.sum)
          add(labelsOf(point, `${name}_count`), point, Number(point.count))
        }
        return
      }
      case "exponentialHistogram":
      case undefined:
        return
    }
  }

  for (const resourceMetrics of request.resourceMetrics) {
    const base = resourceLabels(resourceMetrics.resource?.attributes)
    span = undefined
    for (const scopeMetrics of resourceMetrics.scopeMetrics)
      for (const metric of scopeMetrics.metrics) metricSeries(metric, base)
    targetInfo(base, resourceMetrics.resource?.attributes)
  }

  const series = [...byId.values()].map((one) => ({
    labels: one.labels,
    timestamps: Float64Array.from(one.timestamps, Number),
    bits: BigUint64Array.from(one.values)
  }))
  return { series, samples, metadata: [...metadata.values()] }
}
