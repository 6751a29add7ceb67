/**
 * OTLP/gRPC with the official OpenTelemetry JS gRPC exporters (plain and gzip) and a raw
 * grpc-js client: rows exactly as sent, metadata choosing the database and table, and
 * the status a client gets for each refusal.
 */
import { create, fromBinary, toBinary } from "@bufbuild/protobuf"
import { status } from "@grpc/grpc-js"
import { expect, layer } from "@effect/vitest"
import { ExportResultCode } from "@opentelemetry/core"
import { Effect } from "effect"
import {
  ExportTraceServiceRequestSchema,
  ExportTraceServiceResponseSchema
} from "../../src/otlp/gen/opentelemetry/proto/collector/trace/v1/trace_service_pb.js"
import {
  destinationOf,
  grpcCall,
  grpcPortOf,
  installOtlpApp,
  logExporter,
  metricExporter,
  query,
  send,
  traceExporter
} from "../support/otel.js"
import { logRecords, recordedMetrics, spans } from "../support/otelData.js"
import { countOf, expectLogs, expectMetrics, expectSpans } from "../support/otelChecks.js"
import { adminClientOf } from "../support/client.js"
import { adminKeyOf, freshDataDir, TestServer, createDatabase } from "../support/server.js"

const ADMIN = "otlp-grpc@example.com"
const PASSWORD = "otlp grpc password"
const TRACES = "opentelemetry.proto.collector.trace.v1.TraceService"
const LOGS = "opentelemetry.proto.collector.logs.v1.LogsService"
const METRICS = "opentelemetry.proto.collector.metrics.v1.MetricsService"

const oneSpan = (traceIdBytes: number, name: string) => ({
  traceId: new Uint8Array(traceIdBytes).fill(0xab),
  spanId: Buffer.from("00f067aa0ba902b7", "hex"),
  name,
  startTimeUnixNano: 1_750_000_000_123_456_789n,
  endTimeUnixNano: 1_750_000_000_223_456_789n
})
const traceRequest = (...spans: ReadonlyArray<ReturnType<typeof oneSpan>>) =>
  toBinary(
    ExportTraceServiceRequestSchema,
    create(ExportTraceServiceRequestSchema, {
      resourceSpans: [{ scopeSpans: [{ spans: [...spans] }] }]
    })
  )

layer(
  TestServer.layer(freshDataDir("otlp-grpc"), {
    SLUICE_ADMIN_EMAIL: ADMIN,
    SLUICE_ADMIN_PASSWORD: PASSWORD
  }),
  { excludeTestServices: true, timeout: 120_000 }
)("OTLP/gRPC", (it) => {
  it.effect("before the otlp-app is installed: NOT_FOUND naming the app", () =>
    Effect.gen(function* () {
      const server = yield* TestServer
      const result = yield* send(traceExporter("grpc", destinationOf(server)), spans(1, 2))
      expect(result.code).toBe(ExportResultCode.FAILED)
      const reply = yield* grpcCall(grpcPortOf(server), TRACES, traceRequest(), {
        authorization: `Bearer ${adminKeyOf(server)}`
      })
      expect(reply.code).toBe(status.NOT_FOUND)
      expect(reply.details).toContain("otlp-app")
      expect(reply.details).toContain("PUT /v1/apps/otlp-app")
      yield* installOtlpApp(server, ADMIN, PASSWORD)
    })
  )

  it.effect("traces, logs and metrics from the gRPC exporters, plain and gzip", () =>
    Effect.gen(function* () {
      const server = yield* TestServer
      for (const [n, gzip] of [false, true].entries()) {
        const to = destinationOf(server, { gzip })
        const traced = yield* send(traceExporter("grpc", to), spans(40 + n, 12))
        expect(traced.code, String(traced.error)).toBe(ExportResultCode.SUCCESS)
        yield* expectSpans(server, "traces", 40 + n, 12)
        const logged = yield* send(logExporter("grpc", to), logRecords(50 + n, 6))
        expect(logged.code, String(logged.error)).toBe(ExportResultCode.SUCCESS)
        yield* expectLogs(server, "logs", 50 + n, 6)
        const table = gzip ? "grpc_gz" : "grpc_plain"
        const metrics = yield* recordedMetrics()
        const measured = yield* send(metricExporter("grpc", { ...to, table }), metrics)
        expect(measured.code, String(measured.error)).toBe(ExportResultCode.SUCCESS)
        yield* expectMetrics(server, table)
      }
    })
  )

  it.effect("x-service-database and the table metadata choose where rows land", () =>
    Effect.gen(function* () {
      const server = yield* TestServer
      yield* createDatabase(server, "grpcdb")
      const to = destinationOf(server, { database: "grpcdb", table: "edge_spans" })
      const result = yield* send(traceExporter("grpc", to), spans(60, 3))
      expect(result.code, String(result.error)).toBe(ExportResultCode.SUCCESS)
      yield* expectSpans(server, "edge_spans", 60, 3, "grpcdb")
      expect(yield* countOf(server, "edge_spans")).toBe(0)
      const unknown = yield* grpcCall(grpcPortOf(server), TRACES, traceRequest(), {
        authorization: `Bearer ${adminKeyOf(server)}`,
        "x-service-database": "nowhere"
      })
      expect(unknown.code).toBe(status.NOT_FOUND)
      expect(unknown.details).toContain("nowhere")
    })
  )

  it.effect(
    "credentials: UNAUTHENTICATED without or with a wrong key, PERMISSION_DENIED read-only",
    () =>
      Effect.gen(function* () {
        const server = yield* TestServer
        const port = grpcPortOf(server)
        const none = yield* grpcCall(port, LOGS, new Uint8Array(0))
        expect(none.code).toBe(status.UNAUTHENTICATED)
        const wrong = yield* grpcCall(port, LOGS, new Uint8Array(0), {
          authorization: "Bearer rt_not_a_key"
        })
        expect(wrong.code).toBe(status.UNAUTHENTICATED)
        const admin = yield* adminClientOf(server)
        const created = yield* admin.keys.create({
          urlParams: {},
          payload: { name: "grpc-reader", permission: "read_only" }
        })
        const reader = created.key.token
        const denied = yield* grpcCall(port, METRICS, new Uint8Array(0), {
          authorization: `Bearer ${reader}`
        })
        expect(denied.code).toBe(status.PERMISSION_DENIED)
        const exported = yield* send(
          logExporter("grpc", destinationOf(server, { token: "rt_wrong" })),
          logRecords(70, 1)
        )
        expect(exported.code).toBe(ExportResultCode.FAILED)
      })
  )

  it.effect("malformed payload: INVALID_ARGUMENT, nothing stored; empty: OK, nothing stored", () =>
    Effect.gen(function* () {
      const server = yield* TestServer
      const auth = { authorization: `Bearer ${adminKeyOf(server)}` }
      const port = grpcPortOf(server)
      const before = yield* countOf(server, "traces")
      const garbage = new Uint8Array([0x0a, 0xff, 0xff, 0xff, 0xff, 0x0f, 0x01])
      const bad = yield* grpcCall(port, TRACES, garbage, auth)
      expect(bad.code).toBe(status.INVALID_ARGUMENT)
      const empty = yield* grpcCall(port, TRACES, new Uint8Array(0), auth, true)
      expect(empty.code).toBe(status.OK)
      expect(empty.bytes?.length).toBe(0)
      expect(yield* countOf(server, "traces")).toBe(before)
    })
  )

  it.effect("an invalid span is counted in partialSuccess, the valid one stored", () =>
    Effect.gen(function* () {
      const server = yield* TestServer
      const reply = yield* grpcCall(
        grpcPortOf(server),
        TRACES,
        traceRequest(oneSpan(16, "grpc-kept"), oneSpan(5, "grpc-dropped")),
        { authorization: `Bearer ${adminKeyOf(server)}` },
        true
      )
      expect(reply.code, reply.details).toBe(status.OK)
      const response = fromBinary(ExportTraceServiceResponseSchema, reply.bytes!)
      expect(response.partialSuccess?.rejectedSpans).toBe(1n)
      const rows = yield* query(server, "SELECT SpanName FROM traces WHERE SpanName LIKE 'grpc-%'")
      expect(rows).toEqual([{ SpanName: "grpc-kept" }])
    })
  )
})
