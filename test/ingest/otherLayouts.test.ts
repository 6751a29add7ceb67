/**
 * Inserts into the OTLP app's typed tables (`traces`, `logs`, `metrics` and its point
 * tables), made by the OpenTelemetry exporters: records, as a body or by URL, are a 400
 * naming the table's kind and what it takes, before anything is read or written (they
 * were a 500, and a URL load streamed a 200 ending in "failed on our side"); and
 * `?transform=otlp-*` of the same signal writes into the typed columns.
 */
import { expect, layer } from "@effect/vitest"
import { ExportResultCode } from "@opentelemetry/core"
import { OTLPLogExporter as LogsJson } from "@opentelemetry/exporter-logs-otlp-http"
import { OTLPMetricExporter as MetricsJson } from "@opentelemetry/exporter-metrics-otlp-http"
import { OTLPTraceExporter as TracesJson } from "@opentelemetry/exporter-trace-otlp-http"
import { OTLPTraceExporter as TracesProto } from "@opentelemetry/exporter-trace-otlp-proto"
import { Context, Effect, Layer } from "effect"
import * as http from "node:http"
import type { AddressInfo } from "node:net"
import {
  destinationOf,
  installOtlpApp,
  logExporter,
  metricExporter,
  query,
  send,
  traceExporter
} from "../support/otel.js"
import { expectLogs, expectSpans } from "../support/otelChecks.js"
import { logRecords, recordedMetrics, spans } from "../support/otelData.js"
import { adminKeyOf, call, freshDataDir, TestServer } from "../support/server.js"
import type { Reply } from "../support/server.js"
import * as F from "../otlp/fixtures.js"
import { sql } from "../tables/helpers.js"

const ADMIN = "layouts-admin@example.com"
const PASSWORD = "layouts admin password"
const env = {
  SLUICE_ADMIN_EMAIL: ADMIN,
  SLUICE_ADMIN_PASSWORD: PASSWORD,
  SLUICE_URL_INGEST_ALLOW: "127.0.0.1"
}

// What `@rawtree/otel`'s trace exporter sends through the SDK's `insert` (its default
// table is `traces`): span summaries as JSON records.
const spanEvents = [
  {
    id: "7d8c3a52-5b0e-4c52-9f3e-2a1f0c9b7e11",
    timestamp: "2025-06-15T10:00:00.000Z",
    type: "otel.span",
    source: "otel",
    duration_ms: 12.5,
    trace_id: "5b8efff798038103d269b633813fc60c",
    span_id: "eee19b7ec3c1b174",
    payload: { name: "GET /cart", kind: "server", attributes: { "http.method": "GET" } }
  }
]
const NDJSON = spanEvents.map((event) => JSON.stringify(event)).join("\n") + "\n"

const FileServer = Context.GenericTag<{ url: string }>("LayoutsFileServer")
const fileServer = Layer.scoped(
  FileServer,
  Effect.acquireRelease(
    Effect.promise(
      () =>
        new Promise<http.Server>((resolve) => {
          const server = http.createServer((_, res) => {
            res.writeHead(200, { "content-type": "application/x-ndjson" }).end(NDJSON)
          })
          server.listen(0, "127.0.0.1", () => resolve(server))
        })
    ),
    (server) => Effect.promise(() => new Promise((r) => server.close(r)))
  ).pipe(Effect.map((s) => ({ url: `http://127.0.0.1:${(s.address() as AddressInfo).port}` })))
)

const post = (path: string, body: string | undefined, headers: Record<string, string> = {}) =>
  Effect.flatMap(TestServer, (server) =>
    call(server, "POST", path, {
      token: adminKeyOf(server),
      ...(body === undefined ? {} : { rawBody: body }),
      headers: body === undefined ? headers : { "content-type": "application/json", ...headers }
    })
  )

const expectRefused = (reply: Reply, message: string, hint: string) => {
  expect(reply.status, reply.text).toBe(400)
  expect(reply.json).toEqual({
    error: "bad_request",
    message: expect.stringContaining(message),
    hint: expect.stringContaining(hint)
  })
}

/** The table's columns, rows and companion tables (behind the API): a refusal changes none. */
const footprint = (table: string) =>
  Effect.flatMap(TestServer, (server) =>
    Effect.all([
      sql(server, `SELECT name, type FROM system.columns WHERE table = '${table}' ORDER BY name`),
      sql(server, `SELECT name FROM system.tables WHERE name LIKE '%${table}%' ORDER BY name`),
      query(server, `SELECT count() AS c FROM ${table}`)
    ])
  )

const exported = (result: { code: ExportResultCode; error?: Error }) =>
  expect(result.code, String(result.error)).toBe(ExportResultCode.SUCCESS)

layer(Layer.merge(TestServer.layer(freshDataDir("layouts"), env), fileServer), {
  excludeTestServices: true,
  timeout: 120_000
})("inserts into tables of the OTLP app's layout", (it) => {
  it.effect("the exporters make the typed tables", () =>
    Effect.gen(function* () {
      const server = yield* TestServer
      yield* installOtlpApp(server, ADMIN, PASSWORD)
      exported(yield* send(traceExporter("http/json", destinationOf(server)), spans(1, 3)))
      exported(yield* send(logExporter("http/json", destinationOf(server)), logRecords(2, 2)))
      exported(
        yield* send(metricExporter("http/json", destinationOf(server)), yield* recordedMetrics())
      )
      yield* expectSpans(server, "traces", 1, 3)
    })
  )

  it.effect("records into `traces`, as a body or by URL: a 400 naming it, nothing written", () =>
    Effect.gen(function* () {
      const files = yield* FileServer
      const before = yield* footprint("traces")
      const body = JSON.stringify(spanEvents)
      const refusals = [
        // The SDK's insert (and so @rawtree/otel's exporter), MCP insertJson, rtree --data.
        yield* post("/v1/tables/traces", body),
        yield* post("/v1/tables/traces", NDJSON, { "content-type": "application/x-ndjson" }),
        // rtree --url, without and with its progress stream.
        yield* post(
          `/v1/tables/traces?url=${encodeURIComponent(`${files.url}/spans.ndjson`)}`,
          undefined
        ),
        yield* post(
          `/v1/tables/traces?url=${encodeURIComponent(`${files.url}/spans.ndjson`)}`,
          undefined,
          {
            accept: "application/x-ndjson"
          }
        )
      ]
      for (const reply of refusals) {
        expectRefused(
          reply,
          "Table 'traces' holds OTLP traces in the typed columns of the OTLP app; it does not take JSON records.",
          "?transform=otlp-traces"
        )
      }
      expect(yield* footprint("traces")).toEqual(before)
    })
  )

  it.effect("records into `logs`, the `metrics` view and a metric points table: each named", () =>
    Effect.gen(function* () {
      const body = JSON.stringify(spanEvents)
      expectRefused(yield* post("/v1/tables/logs", body), "holds OTLP logs", "?transform=otlp-logs")
      expectRefused(
        yield* post("/v1/tables/metrics", body),
        "Table 'metrics' is the OTLP app's view over its metric tables",
        "POST /otlp/v1/metrics"
      )
      expectRefused(
        yield* post("/v1/tables/metrics_exponential_histogram", body),
        "holds OTLP metric points",
        "Send OTLP metrics to 'metrics'"
      )
    })
  )

  it.effect("?transform=otlp-* of the table's signal writes into its typed columns", () =>
    Effect.gen(function* () {
      const server = yield* TestServer
      const at = (table: string, transform: string) => ({
        url: `${server.url}/v1/tables/${table}?transform=${transform}`,
        headers: { authorization: `Bearer ${adminKeyOf(server)}` }
      })
      exported(yield* send(new TracesJson(at("traces", "otlp-traces")), spans(3, 4)))
      exported(yield* send(new TracesProto(at("traces", "otlp-traces")), spans(4, 2)))
      exported(yield* send(new LogsJson(at("logs", "otlp-logs")), logRecords(5, 3)))
      const sums = yield* query(server, "SELECT count() AS c FROM metrics_sum")
      exported(
        yield* send(new MetricsJson(at("metrics", "otlp-metrics")), yield* recordedMetrics())
      )
      yield* expectSpans(server, "traces", 3, 4)
      yield* expectSpans(server, "traces", 4, 2)
      yield* expectLogs(server, "logs", 5, 3)
      expect(yield* query(server, "SELECT count() AS c FROM traces")).toEqual([{ c: "9" }])
      // recordedMetrics has two sum points (otelData.ts): the view's table has them twice now.
      expect(yield* query(server, "SELECT count() AS c FROM metrics_sum")).toEqual([
        { c: String(2 * Number(sums[0]?.c)) }
      ])
      const reply = yield* post(
        "/v1/tables/traces?transform=otlp-traces",
        JSON.stringify(F.traces())
      )
      expect(reply.status, reply.text).toBe(200)
      expect(reply.json).toEqual({ inserted: 1 })
    })
  )

  it.effect("?transform= of another signal, or with an insert token, is a 400 naming why", () =>
    Effect.gen(function* () {
      const before = yield* footprint("traces")
      expectRefused(
        yield* post("/v1/tables/traces?transform=otlp-logs", JSON.stringify(F.logs())),
        "Table 'traces' holds OTLP traces in the typed columns of the OTLP app; it does not take OTLP logs as records.",
        "?transform=otlp-traces"
      )
      expectRefused(
        yield* post("/v1/tables/traces?transform=otlp-traces", JSON.stringify(F.traces()), {
          "idempotency-key": "batch-1"
        }),
        "Insert tokens are not kept for 'traces'",
        "without insert_deduplication_token or idempotency-key"
      )
      expect(yield* footprint("traces")).toEqual(before)
    })
  )
})
