/**
 * `otlp-metrics` as OTLP/JSON-named rows: one per data point, all in
 * the one table the request names, told apart by `type`; each carries its metric's
 * `name`, `description`, `unit` and its own fields under their OTLP/JSON names.
 */
import type {
  OtlpExemplar,
  OtlpMetric,
  OtlpMetricsRequest,
  OtlpNumberValue,
  OtlpPointBase
} from "../../../domain/OtlpModel.js"
import type { Flattened } from "../../../domain/OtlpTransforms.js"
import { hex, Rejections } from "../transforms/Ids.js"
import { exemplarProblem } from "../transforms/MetricsTransform.js"
import { FlatFields } from "./FlatRow.js"
import type { FlatValue } from "./FlatRow.js"
import { addAttributes, nanos, resourceFields } from "./FlatValue.js"

type Shared = ReadonlyArray<readonly [string, FlatValue]>

const setNumber = (fields: FlatFields, value: OtlpNumberValue) =>
  value.case === undefined ? fields : fields.set(value.case, value.value)

const exemplarsOf = (list: ReadonlyArray<OtlpExemplar>) =>
  list.map((exemplar) => {
    const fields = setNumber(
      new FlatFields().set("timeUnixNano", nanos(exemplar.timeUnixNano)),
      exemplar.value
    )
    if (exemplar.traceId.length > 0) fields.set("traceId", hex(exemplar.traceId))
    if (exemplar.spanId.length > 0) fields.set("spanId", hex(exemplar.spanId))
    addAttributes(fields, "filteredAttributes.", exemplar.filteredAttributes)
    return fields.fields
  })

/** The fields of every point, after the metric's. */
const pointRow = (metric: Shared, type: string, point: OtlpPointBase) => {
  const row = new FlatFields()
    .merge(metric)
    .set("type", type)
    .set("startTimeUnixNano", nanos(point.startTimeUnixNano))
    .set("timeUnixNano", nanos(point.timeUnixNano))
  addAttributes(row, "attributes.", point.attributes)
  return row.set("flags", BigInt(point.flags))
}

/** The rows of one metric's points, unfinished (scope and resource come after). */
const metricRows = (
  metric: OtlpMetric,
  shared: Shared,
  keep: (exemplars: ReadonlyArray<OtlpExemplar>) => boolean
) => {
  const rows: Array<FlatFields> = []
  const data = metric.data
  switch (data.case) {
    case "gauge":
    case "sum":
      for (const p of data.value.dataPoints) {
        if (!keep(p.exemplars)) continue
        const row = setNumber(pointRow(shared, data.case, p), p.value)
        if (data.case === "sum")
          row
            .set("aggregationTemporality", BigInt(data.value.aggregationTemporality))
            .set("isMonotonic", data.value.isMonotonic)
        rows.push(row.list("exemplars", exemplarsOf(p.exemplars)))
      }
      break
    case "histogram":
      for (const p of data.value.dataPoints) {
        if (!keep(p.exemplars)) continue
        rows.push(
          pointRow(shared, "histogram", p)
            .set("count", p.count)
            .set("sum", p.sum)
            .list("bucketCounts", p.bucketCounts)
            .list("explicitBounds", p.explicitBounds)
            .set("min", p.min)
            .set("max", p.max)
            .set("aggregationTemporality", BigInt(data.value.aggregationTemporality))
            .list("exemplars", exemplarsOf(p.exemplars))
        )
      }
      break
    case "exponentialHistogram":
      for (const p of data.value.dataPoints) {
        if (!keep(p.exemplars)) continue
        const row = pointRow(shared, "exponential_histogram", p)
          .set("count", p.count)
          .set("sum", p.sum)
          .set("scale", BigInt(p.scale))
          .set("zeroCount", p.zeroCount)
        for (const [side, buckets] of [
          ["positive", p.positive],
          ["negative", p.negative]
        ] as const)
          if (buckets !== undefined)
            row
              .set(`${side}.offset`, BigInt(buckets.offset))
              .list(`${side}.bucketCounts`, buckets.bucketCounts)
        rows.push(
          row
            .set("min", p.min)
            .set("max", p.max)
            .set("aggregationTemporality", BigInt(data.value.aggregationTemporality))
            .list("exemplars", exemplarsOf(p.exemplars))
        )
      }
      break
    case "summary":
      for (const p of data.value.dataPoints)
        rows.push(
          pointRow(shared, "summary", p)
            .set("count", p.count)
            .set("sum", p.sum)
            .list(
              "quantileValues",
              p.quantileValues.map(
                (q) => new FlatFields().set("quantile", q.quantile).set("value", q.value).fields
              )
            )
        )
      break
  }
  return rows
}

export const pointRows = (request: OtlpMetricsRequest): Flattened<ReadonlyArray<string>> => {
  const rows: Array<string> = []
  const rejections = new Rejections()
  for (const resourceMetrics of request.resourceMetrics) {
    const resource = resourceFields(resourceMetrics.resource?.attributes)
    for (const scopeMetrics of resourceMetrics.scopeMetrics) {
      const scope: Shared = [
        ["scope.name", scopeMetrics.scope?.name ?? ""],
        ["scope.version", scopeMetrics.scope?.version ?? ""]
      ]
      for (const metric of scopeMetrics.metrics) {
        if (metric.data.case === undefined) {
          // No data, so no points to count: the metric itself is the rejected record.
          rejections.reject(`metric '${metric.name}'`, "it has no data (gauge, sum, histogram …)")
          continue
        }
        const keep = (exemplars: ReadonlyArray<OtlpExemplar>) => {
          const problem = exemplarProblem(exemplars)
          if (problem !== undefined) rejections.reject(`data point of '${metric.name}'`, problem)
          return problem === undefined
        }
        const shared: Shared = [
          ["name", metric.name],
          ["description", metric.description],
          ["unit", metric.unit]
        ]
        for (const row of metricRows(metric, shared, keep))
          rows.push(row.merge(scope).merge(resource).json())
      }
    }
  }
  return { rows, rejected: rejections.count, message: rejections.message("data points") }
}
