/**
 * OTLP/HTTP with the official OpenTelemetry JS exporters (JSON and protobuf, plain and
 * gzip): traces, logs and metrics land in the collector-schema tables exactly as sent,
 * only once the otlp-app is installed; the table headers and `?database=` redirect them.
 */
import { expect, layer } from "@effect/vitest"
import { ExportResultCode } from "@opentelemetry/core"
import { Effect } from "effect"
import { adminKeyOf, call, freshDataDir, TestServer, createDatabase } from "../support/server.js"
import {
  destinationOf,
  installOtlpApp,
  logExporter,
  metricExporter,
  query,
  send,
  traceExporter
} from "../support/otel.js"
import { logRecords, recordedMetrics, spans } from "../support/otelData.js"
import type { Transport } from "../support/otel.js"
import { countOf, expectLogs, expectMetrics, expectSpans } from "../support/otelChecks.js"

const ADMIN = "otlp-admin@example.com"
const PASSWORD = "otlp admin password"
const env = { SLUICE_ADMIN_EMAIL: ADMIN, SLUICE_ADMIN_PASSWORD: PASSWORD }
const httpTransports: ReadonlyArray<Transport> = ["http/json", "http/protobuf"]

layer(TestServer.layer(freshDataDir("otlp-native"), env), {
  excludeTestServices: true,
  timeout: 120_000
})("OTLP/HTTP with the OpenTelemetry exporters", (it) => {
  it.effect("before the otlp-app is installed: 404 naming the app, nothing stored", () =>
    Effect.gen(function* () {
      const server = yield* TestServer
      const result = yield* send(traceExporter("http/protobuf", destinationOf(server)), spans(1, 3))
      expect(result.code).toBe(ExportResultCode.FAILED)
      const reply = yield* call(server, "POST", "/otlp/v1/traces", {
        token: adminKeyOf(server),
        rawBody: "{}",
        headers: { "content-type": "application/json" }
      })
      expect(reply.status).toBe(404)
      expect(reply.json).toMatchObject({
        error: "not_found",
        message: expect.stringContaining("otlp-app"),
        hint: expect.stringContaining("PUT /v1/apps/otlp-app?organization=default&cluster=default")
      })
      yield* installOtlpApp(server, ADMIN, PASSWORD)
    })
  )

  it.effect("traces over JSON and protobuf: every span, id, attribute and nanosecond", () =>
    Effect.gen(function* () {
      const server = yield* TestServer
      for (const [n, transport] of httpTransports.entries()) {
        const result = yield* send(
          traceExporter(transport, destinationOf(server)),
          spans(10 + n, 12)
        )
        expect(result.code, String(result.error)).toBe(ExportResultCode.SUCCESS)
        yield* expectSpans(server, "traces", 10 + n, 12)
      }
    })
  )

  it.effect("logs over JSON and protobuf", () =>
    Effect.gen(function* () {
      const server = yield* TestServer
      for (const [n, transport] of httpTransports.entries()) {
        const result = yield* send(
          logExporter(transport, destinationOf(server)),
          logRecords(20 + n, 7)
        )
        expect(result.code, String(result.error)).toBe(ExportResultCode.SUCCESS)
        yield* expectLogs(server, "logs", 20 + n, 7)
      }
    })
  )

  it.effect("metrics over JSON and protobuf: sum, histogram and gauge points", () =>
    Effect.gen(function* () {
      const server = yield* TestServer
      for (const transport of httpTransports) {
        const table = transport === "http/json" ? "m_json" : "m_proto"
        const metrics = yield* recordedMetrics()
        const exporter = metricExporter(transport, destinationOf(server, { table }))
        const result = yield* send(exporter, metrics)
        expect(result.code, String(result.error)).toBe(ExportResultCode.SUCCESS)
        yield* expectMetrics(server, table)
      }
    })
  )

  it.effect("gzip, the table headers and ?database= choose where rows land", () =>
    Effect.gen(function* () {
      const server = yield* TestServer
      yield* createDatabase(server, "telemetry")
      for (const [n, transport] of httpTransports.entries()) {
        const to = destinationOf(server, { gzip: true, database: "telemetry", table: "spans_gz" })
        const result = yield* send(traceExporter(transport, to), spans(30, 5))
        expect(result.code, String(result.error)).toBe(ExportResultCode.SUCCESS)
        const logsTo = destinationOf(server, { gzip: true, table: "app_logs" })
        const logs = yield* send(logExporter(transport, logsTo), logRecords(31 + n, 4))
        expect(logs.code, String(logs.error)).toBe(ExportResultCode.SUCCESS)
        yield* expectLogs(server, "app_logs", 31 + n, 4)
      }
      // Both transports sent the same spans: each appears twice.
      const rows = yield* query(
        server,
        "SELECT count() AS c, uniqExact(SpanId) AS u FROM spans_gz",
        "telemetry"
      )
      expect(rows).toEqual([{ c: "10", u: "5" }])
      expect(yield* countOf(server, "spans_gz")).toBe(0)
    })
  )
})
