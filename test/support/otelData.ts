/**
 * The telemetry the OTLP suites send: spans and log records built with known ids,
 * attributes and nanosecond times (so SQL can be checked against them exactly), and
 * metrics recorded through a real MeterProvider.
 */
import { SpanKind, SpanStatusCode } from "@opentelemetry/api"
import type { HrTime } from "@opentelemetry/api"
import { SeverityNumber } from "@opentelemetry/api-logs"
import { resourceFromAttributes } from "@opentelemetry/resources"
import type { ReadableLogRecord } from "@opentelemetry/sdk-logs"
import { MeterProvider, MetricReader } from "@opentelemetry/sdk-metrics"
import type { ReadableSpan } from "@opentelemetry/sdk-trace-base"
import { Effect } from "effect"

const hex = (n: number, length: number) => n.toString(16).padStart(length, "0")

/** A trace id and span id unique to (`batch`, `i`). */
export const traceIdOf = (batch: number, i: number) => `5eed${hex(batch, 12)}${hex(i, 16)}`
export const spanIdOf = (batch: number, i: number) => `${hex(batch, 8)}${hex(i + 1, 8)}`

/** Seconds and nanoseconds past 2^53 ns: a float would lose the last digits. */
export const startOf = (i: number): HrTime => [1_750_000_000 + i, 123_456_789]
export const endOf = (i: number): HrTime => [1_750_000_000 + i, 987_654_321 - i]
/** `[s, ns]` as the decimal nanosecond count. */
export const nanos = ([s, ns]: HrTime) => (BigInt(s) * 1_000_000_000n + BigInt(ns)).toString()

export const resource = resourceFromAttributes({
  "service.name": "checkout",
  "host.name": "test-host-1"
})
const scope = { name: "sluice-tests", version: "1.2.3" }

/** `count` server spans of trace `traceIdOf(batch, i)`; every odd one has a parent. */
export const spans = (batch: number, count: number): Array<ReadableSpan> =>
  Array.from({ length: count }, (_, i): ReadableSpan => {
    const context = { traceId: traceIdOf(batch, i), spanId: spanIdOf(batch, i), traceFlags: 1 }
    const start = startOf(i)
    const end = endOf(i)
    return {
      name: `GET /items/${i}`,
      kind: SpanKind.SERVER,
      spanContext: () => context,
      ...(i % 2 === 1 ? { parentSpanContext: { ...context, spanId: spanIdOf(batch, i - 1) } } : {}),
      startTime: start,
      endTime: end,
      duration: [0, end[1] - start[1]],
      status:
        i % 5 === 4
          ? { code: SpanStatusCode.ERROR, message: `failed ${i}` }
          : { code: SpanStatusCode.OK },
      attributes: { "http.method": "GET", "http.status_code": 200 + (i % 3), "item.index": i },
      events: [{ name: "cache.miss", time: [start[0], 500_000_001], attributes: { key: `k${i}` } }],
      links:
        i === 0
          ? [{ context: { ...context, traceId: traceIdOf(batch + 1000, 0) }, attributes: {} }]
          : [],
      ended: true,
      resource,
      instrumentationScope: scope,
      droppedAttributesCount: 0,
      droppedEventsCount: 0,
      droppedLinksCount: 0
    }
  })

/** `count` log records, each tied to the span `spanIdOf(batch, i)`. */
export const logRecords = (batch: number, count: number): Array<ReadableLogRecord> =>
  Array.from({ length: count }, (_, i): ReadableLogRecord => ({
    hrTime: startOf(i),
    hrTimeObserved: endOf(i),
    spanContext: { traceId: traceIdOf(batch, i), spanId: spanIdOf(batch, i), traceFlags: 1 },
    severityNumber: i % 2 === 0 ? SeverityNumber.INFO : SeverityNumber.ERROR,
    severityText: i % 2 === 0 ? "INFO" : "ERROR",
    body: `log line ${i} of batch ${batch}`,
    resource,
    instrumentationScope: scope,
    attributes: { "user.id": `u${i}`, "item.index": i },
    droppedAttributesCount: 0
  }))

class ManualReader extends MetricReader {
  protected override onForceFlush() {
    return Promise.resolve()
  }
  protected override onShutdown() {
    return Promise.resolve()
  }
}

/**
 * Metrics recorded through the SDK and collected once: a counter with two attribute
 * sets (two sum points), a histogram (one point) and a gauge (one point).
 */
export const recordedMetrics = () =>
  Effect.promise(async () => {
    const reader = new ManualReader()
    const provider = new MeterProvider({ resource, readers: [reader] })
    const meter = provider.getMeter(scope.name, scope.version)
    const requests = meter.createCounter("http.requests", { unit: "1" })
    requests.add(3, { route: "/a" })
    requests.add(4, { route: "/b" })
    const latency = meter.createHistogram("http.latency", { unit: "ms" })
    for (const v of [1, 5, 50, 500]) latency.record(v, { route: "/a" })
    meter.createGauge("queue.depth").record(42, { queue: "jobs" })
    const { resourceMetrics } = await reader.collect()
    await provider.shutdown()
    return resourceMetrics
  })
