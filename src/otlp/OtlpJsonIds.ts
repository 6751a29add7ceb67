/**
 * OTLP/JSON writes trace and span ids as hex, where the generic protobuf JSON mapping
 * expects base64 for `bytes`. Each id field is rewritten from hex to base64 before the
 * generic decoder sees it; an id that is not hex (base64, for instance) is refused
 * rather than decoded silently into other bytes.
 */

export class NotHexId {
  constructor(
    readonly field: string,
    readonly value: string
  ) {}
}

type Json = { [key: string]: unknown }

const isObject = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value)

const each = (value: unknown, f: (item: Json) => void) => {
  if (Array.isArray(value)) for (const item of value) if (isObject(item)) f(item)
}

/** The value under the JSON name or, failing that, the proto field name. */
const child = (object: Json, camel: string, snake: string): unknown =>
  object[camel] ?? object[snake]

const HEX = /^(?:[0-9a-fA-F]{2})*$/

const rewriteId = (object: Json, camel: string, snake: string) => {
  for (const key of [camel, snake]) {
    const value = object[key]
    if (typeof value !== "string") continue
    if (!HEX.test(value)) throw new NotHexId(camel, value)
    object[key] = Buffer.from(value, "hex").toString("base64")
  }
}

const rewriteSpanIds = (item: Json) => {
  rewriteId(item, "traceId", "trace_id")
  rewriteId(item, "spanId", "span_id")
}

/** Walks resource → scope → items, calling `f` on each item. */
const items = (
  root: Json,
  resource: readonly [string, string],
  scope: readonly [string, string],
  item: readonly [string, string],
  f: (item: Json) => void
) =>
  each(child(root, ...resource), (r) => each(child(r, ...scope), (s) => each(child(s, ...item), f)))

export const rewriteTraceIds = (root: Json) =>
  items(
    root,
    ["resourceSpans", "resource_spans"],
    ["scopeSpans", "scope_spans"],
    ["spans", "spans"],
    (span) => {
      rewriteSpanIds(span)
      rewriteId(span, "parentSpanId", "parent_span_id")
      each(span["links"], rewriteSpanIds)
    }
  )

export const rewriteLogIds = (root: Json) =>
  items(
    root,
    ["resourceLogs", "resource_logs"],
    ["scopeLogs", "scope_logs"],
    ["logRecords", "log_records"],
    rewriteSpanIds
  )

const METRIC_KINDS = [
  ["gauge", "gauge"],
  ["sum", "sum"],
  ["histogram", "histogram"],
  ["exponentialHistogram", "exponential_histogram"],
  ["summary", "summary"]
] as const

export const rewriteMetricIds = (root: Json) =>
  items(
    root,
    ["resourceMetrics", "resource_metrics"],
    ["scopeMetrics", "scope_metrics"],
    ["metrics", "metrics"],
    (metric) => {
      for (const kind of METRIC_KINDS) {
        const data = child(metric, kind[0], kind[1])
        if (isObject(data))
          each(child(data, "dataPoints", "data_points"), (point) =>
            each(point["exemplars"], rewriteSpanIds)
          )
      }
    }
  )

export { isObject }
