/**
 * The flattenings as pure functions: every field of the fixtures lands in the column
 * the ClickHouse exporter's schema gives it; invalid records are counted, not kept.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { decodeExport } from "../../src/otlp/OtlpIngest.js"
import { flattenLogs } from "../../src/otlp/transforms/LogsTransform.js"
import { flattenMetrics } from "../../src/otlp/transforms/MetricsTransform.js"
import { flattenTraces } from "../../src/otlp/transforms/TracesTransform.js"
import * as F from "./fixtures.js"

const decoded = (signal: "traces" | "logs" | "metrics", body: unknown) =>
  decodeExport(signal, "json", F.bytesOf(body))

const traceRows = (body: unknown) =>
  Effect.map(decoded("traces", body), (d) => {
    if (d.signal !== "traces") throw new Error("traces expected")
    return flattenTraces(d.request)
  })

const RESOURCE = { "service.name": "checkout", "host.cpus": "8" }

describe("otlp-traces", () => {
  it.effect("one row per span with resource, scope, attributes, events and links", () =>
    Effect.gen(function* () {
      const { rows, rejected } = yield* traceRows(F.traces())
      expect(rejected).toBe(0)
      expect(rows).toHaveLength(1)
      expect({ ...rows[0]! }).toEqual({
        Timestamp: 1700000000123456789n,
        TraceId: F.TRACE_ID,
        SpanId: F.SPAN_ID,
        ParentSpanId: F.PARENT_ID,
        TraceState: "vendor=1",
        SpanName: "GET /cart",
        SpanKind: "Server",
        ServiceName: "checkout",
        ResourceAttributes: RESOURCE,
        ScopeName: "io.sluice.test",
        ScopeVersion: "1.2.3",
        SpanAttributes: {
          "http.method": "GET",
          "http.status_code": "200",
          retry: "true",
          ratio: "0.25",
          tags: '["a",2]',
          blob: "AQID"
        },
        Duration: 864197532n,
        StatusCode: "Error",
        StatusMessage: "upstream timeout",
        "Events.Timestamp": [1700000000500000001n],
        "Events.Name": ["cache.miss"],
        "Events.Attributes": [{ "cache.key": "cart:42" }],
        "Links.TraceId": [F.LINKED_TRACE],
        "Links.SpanId": [F.LINKED_SPAN],
        "Links.TraceState": [""],
        "Links.Attributes": [{ "link.kind": "follows" }]
      })
    })
  )

  it.effect(
    "a root span has an empty parent; a span with a short id is rejected, the rest kept",
    () =>
      Effect.gen(function* () {
        const flat = yield* traceRows(
          F.traces([
            F.span({ parentSpanId: "", name: "root" }),
            F.span({ spanId: "abcd", name: "short" }),
            F.span({ name: "ok", kind: 3, status: undefined })
          ])
        )
        expect(
          flat.rows.map((r) => [r.SpanName, r.ParentSpanId, r.SpanKind, r.StatusCode])
        ).toEqual([
          ["root", "", "Server", "Error"],
          ["ok", F.PARENT_ID, "Client", "Unset"]
        ])
        expect(flat.rejected).toBe(1)
        expect(flat.message).toContain("span_id is 2 bytes, not 8")
      })
  )

  it.effect(
    "map attribute values render as JSON with sorted keys, as the exporter writes them",
    () =>
      Effect.gen(function* () {
        const kvlist = {
          kvlistValue: {
            values: [
              { key: "z", value: { intValue: "1" } },
              { key: "a", value: { stringValue: "<b>" } }
            ]
          }
        }
        const { rows } = yield* traceRows(
          F.traces([F.span({ attributes: [{ key: "m", value: kvlist }] })])
        )
        expect(rows[0]!.SpanAttributes).toEqual({ m: '{"a":"\\u003cb\\u003e","z":1}' })
      })
  )
})

describe("otlp-logs", () => {
  it.effect("one row per record; the observed time stands in for a missing time", () =>
    Effect.gen(function* () {
      const d = yield* decoded(
        "logs",
        F.logs([F.logRecord(), F.logRecord({ timeUnixNano: "0", traceId: "", spanId: "" })])
      )
      if (d.signal !== "logs") throw new Error("logs expected")
      const { rows, rejected } = flattenLogs(d.request)
      expect(rejected).toBe(0)
      expect({ ...rows[0]! }).toEqual({
        Timestamp: 1700000000123456789n,
        TraceId: F.TRACE_ID,
        SpanId: F.SPAN_ID,
        TraceFlags: 1,
        SeverityText: "ERROR",
        SeverityNumber: 17,
        ServiceName: "checkout",
        Body: "payment declined",
        ResourceSchemaUrl: "https://opentelemetry.io/schemas/1.26.0",
        ResourceAttributes: RESOURCE,
        ScopeSchemaUrl: "https://scope.example/1",
        ScopeName: "io.sluice.test",
        ScopeVersion: "1.2.3",
        ScopeAttributes: {},
        LogAttributes: { "user.id": "9007199254740993" },
        EventName: "payment.failed"
      })
      expect([rows[1]!.Timestamp, rows[1]!.TraceId, rows[1]!.SpanId]).toEqual([
        1700000000987654321n,
        "",
        ""
      ])
    })
  )
})

describe("otlp-metrics", () => {
  it.effect("gauge, sum, histogram, exponential histogram and summary points", () =>
    Effect.gen(function* () {
      const d = yield* decoded("metrics", F.metrics())
      if (d.signal !== "metrics") throw new Error("metrics expected")
      const { rows, rejected } = flattenMetrics(d.request)
      expect(rejected).toBe(0)
      const common = {
        ResourceAttributes: RESOURCE,
        ServiceName: "checkout",
        ScopeName: "io.sluice.test",
        Attributes: { route: "/cart" },
        StartTimeUnix: 1700000000123456789n,
        TimeUnix: 1700000000987654321n
      }
      expect(rows.gauge).toEqual([
        expect.objectContaining({ ...common, MetricName: "queue.depth", Value: 7 })
      ])
      expect(rows.sum).toEqual([
        expect.objectContaining({
          ...common,
          MetricName: "requests",
          MetricDescription: "served requests",
          Value: 42.5,
          AggregationTemporality: 2,
          IsMonotonic: true,
          "Exemplars.TimeUnix": [1700000000500000001n],
          "Exemplars.Value": [1.5],
          "Exemplars.TraceId": [F.TRACE_ID],
          "Exemplars.SpanId": [F.SPAN_ID],
          "Exemplars.FilteredAttributes": [{ user: "u1" }]
        })
      ])
      expect(rows.histogram).toEqual([
        expect.objectContaining({
          ...common,
          MetricUnit: "ms",
          Count: 6n,
          Sum: 33.5,
          BucketCounts: [1n, 2n, 3n],
          ExplicitBounds: [5, 10],
          Min: 0.5,
          Max: 12,
          AggregationTemporality: 1
        })
      ])
      expect(rows.exponential_histogram).toEqual([
        expect.objectContaining({
          ...common,
          Count: 5n,
          Sum: 100,
          Scale: 3,
          ZeroCount: 1n,
          PositiveOffset: -2,
          PositiveBucketCounts: [1n, 3n],
          NegativeOffset: 1,
          NegativeBucketCounts: [],
          Max: 40
        })
      ])
      expect(rows.summary).toEqual([
        expect.objectContaining({
          ...common,
          Count: 10n,
          Sum: 4.5,
          "ValueAtQuantiles.Quantile": [0.5, 0.99],
          "ValueAtQuantiles.Value": [0.3, 1.2]
        })
      ])
    })
  )

  it.effect("a point with a broken exemplar id and a metric without data are rejected", () =>
    Effect.gen(function* () {
      const badExemplar = {
        name: "g",
        gauge: {
          dataPoints: [
            { asDouble: 1, exemplars: [{ traceId: "abcd", asDouble: 1 }] },
            { asDouble: 2 }
          ]
        }
      }
      const d = yield* decoded("metrics", F.metrics([badExemplar, { name: "empty" }]))
      if (d.signal !== "metrics") throw new Error("metrics expected")
      const flat = flattenMetrics(d.request)
      expect(flat.rows.gauge.map((r) => r.Value)).toEqual([2])
      expect(flat.rejected).toBe(2)
      expect(flat.message).toContain("exemplar trace_id is 2 bytes")
    })
  )
})
