/**
 * The OTLP app's `metrics` table: after the OpenTelemetry JS exporter
 * sends a sum, a histogram and a gauge, `SELECT … FROM metrics` answers for all three
 * kinds with their common columns; an override header's base name gets the same table;
 * describe lists its columns.
 */
import { expect, layer } from "@effect/vitest"
import { ExportResultCode } from "@opentelemetry/core"
import { Effect } from "effect"
import { TableName } from "../../domain/Ids.js"
import { adminClientOf } from "../support/client.js"
import { destinationOf, installOtlpApp, metricExporter, query, send } from "../support/otel.js"
import { recordedMetrics } from "../support/otelData.js"
import { freshDataDir, TestServer } from "../support/server.js"

const ADMIN = "metrics-admin@example.com"
const PASSWORD = "metrics admin password"
const env = { SLUICE_ADMIN_EMAIL: ADMIN, SLUICE_ADMIN_PASSWORD: PASSWORD }

const COMMON =
  "MetricType, MetricName, ServiceName, Value, Count, Sum, Attributes['route'] AS route, " +
  "Attributes['queue'] AS queue"

/**
 * otelData.ts `recordedMetrics`: counter http.requests +3 on /a and +4 on /b (two sum
 * points), histogram http.latency of 1, 5, 50 and 500 on /a (count 4, sum 556), gauge
 * queue.depth 42 on queue jobs; all from service checkout.
 */
const EXPECTED = [
  {
    MetricType: "histogram",
    MetricName: "http.latency",
    ServiceName: "checkout",
    Value: null,
    Count: "4",
    Sum: 556,
    route: "/a",
    queue: ""
  },
  {
    MetricType: "sum",
    MetricName: "http.requests",
    ServiceName: "checkout",
    Value: 3,
    Count: null,
    Sum: null,
    route: "/a",
    queue: ""
  },
  {
    MetricType: "sum",
    MetricName: "http.requests",
    ServiceName: "checkout",
    Value: 4,
    Count: null,
    Sum: null,
    route: "/b",
    queue: ""
  },
  {
    MetricType: "gauge",
    MetricName: "queue.depth",
    ServiceName: "checkout",
    Value: 42,
    Count: null,
    Sum: null,
    route: "",
    queue: "jobs"
  }
]

layer(TestServer.layer(freshDataDir("otlp-metrics-table"), env), {
  excludeTestServices: true,
  timeout: 120_000
})("the OTLP app's metrics table", (it) => {
  it.effect("SELECT … FROM metrics answers for gauge, sum and histogram points", () =>
    Effect.gen(function* () {
      const server = yield* TestServer
      yield* installOtlpApp(server, ADMIN, PASSWORD)
      const result = yield* send(
        metricExporter("http/json", destinationOf(server)),
        yield* recordedMetrics()
      )
      expect(result.code, String(result.error)).toBe(ExportResultCode.SUCCESS)
      expect(
        yield* query(server, `SELECT ${COMMON} FROM metrics ORDER BY MetricName, route`)
      ).toEqual(EXPECTED)
      // Filters and aggregates go through it like through any table.
      expect(
        yield* query(
          server,
          "SELECT MetricType, count() AS points FROM metrics " +
            "WHERE ServiceName = 'checkout' GROUP BY MetricType ORDER BY MetricType"
        )
      ).toEqual([
        { MetricType: "gauge", points: "1" },
        { MetricType: "histogram", points: "1" },
        { MetricType: "sum", points: "2" }
      ])
    })
  )

  it.effect("the override header's base name gets its own table over its five", () =>
    Effect.gen(function* () {
      const server = yield* TestServer
      const result = yield* send(
        metricExporter("http/protobuf", destinationOf(server, { table: "app_metrics" })),
        yield* recordedMetrics()
      )
      expect(result.code, String(result.error)).toBe(ExportResultCode.SUCCESS)
      expect(
        yield* query(server, `SELECT ${COMMON} FROM app_metrics ORDER BY MetricName, route`)
      ).toEqual(EXPECTED)
      const admin = yield* adminClientOf(server)
      const { tables } = yield* admin.tables.list({ urlParams: {} })
      expect(tables.map((t) => t.name).filter((name) => name.startsWith("app_metrics"))).toEqual([
        "app_metrics",
        "app_metrics_exponential_histogram",
        "app_metrics_gauge",
        "app_metrics_histogram",
        "app_metrics_sum",
        "app_metrics_summary"
      ])
    })
  )

  it.effect("describe of metrics lists the common columns with their types", () =>
    Effect.gen(function* () {
      const server = yield* TestServer
      const admin = yield* adminClientOf(server)
      const described = yield* admin.tables.describe({
        path: { table: TableName.make("metrics") },
        urlParams: {}
      })
      const map = "Map(LowCardinality(String), String)"
      const columns = [
        { name: "ResourceAttributes", type: map },
        { name: "ServiceName", type: "LowCardinality(String)" },
        { name: "ScopeName", type: "String" },
        { name: "ScopeVersion", type: "String" },
        { name: "MetricName", type: "String" },
        { name: "MetricDescription", type: "String" },
        { name: "MetricUnit", type: "String" },
        { name: "Attributes", type: map },
        { name: "StartTimeUnix", type: "DateTime64(9)" },
        { name: "TimeUnix", type: "DateTime64(9)" },
        { name: "MetricType", type: "LowCardinality(String)" },
        { name: "Value", type: "Nullable(Float64)" },
        { name: "Count", type: "Nullable(UInt64)" },
        { name: "Sum", type: "Nullable(Float64)" }
      ]
      expect(described.columns).toEqual(columns)
      expect(described.table.columns).toEqual(columns)
      expect(described.name).toBe("metrics")
      expect(described.created_at).not.toBe("")
    })
  )
})
