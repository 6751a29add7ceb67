/**
 * The official OpenTelemetry JS exporters pointed at a test server (the telemetry they
 * send is in `otelData.ts`), a raw gRPC client, and the server-side steps the OTLP
 * suites share: installing the otlp-app and reading rows back with SQL.
 */
import { Client, Metadata, compressionAlgorithms, credentials, status } from "@grpc/grpc-js"
import type { ExportResult } from "@opentelemetry/core"
import { OTLPLogExporter as LogsGrpc } from "@opentelemetry/exporter-logs-otlp-grpc"
import { OTLPLogExporter as LogsJson } from "@opentelemetry/exporter-logs-otlp-http"
import { OTLPLogExporter as LogsProto } from "@opentelemetry/exporter-logs-otlp-proto"
import { OTLPMetricExporter as MetricsGrpc } from "@opentelemetry/exporter-metrics-otlp-grpc"
import { OTLPMetricExporter as MetricsJson } from "@opentelemetry/exporter-metrics-otlp-http"
import { OTLPMetricExporter as MetricsProto } from "@opentelemetry/exporter-metrics-otlp-proto"
import { OTLPTraceExporter as TracesGrpc } from "@opentelemetry/exporter-trace-otlp-grpc"
import { OTLPTraceExporter as TracesJson } from "@opentelemetry/exporter-trace-otlp-http"
import { OTLPTraceExporter as TracesProto } from "@opentelemetry/exporter-trace-otlp-proto"
import { CompressionAlgorithm } from "@opentelemetry/otlp-exporter-base"
import type { ReadableLogRecord } from "@opentelemetry/sdk-logs"
import type { ResourceMetrics } from "@opentelemetry/sdk-metrics"
import type { ReadableSpan } from "@opentelemetry/sdk-trace-base"
import { Context, Effect } from "effect"
import { QueryRequest } from "../../domain/api/QueryApi.js"
import { OtlpGrpcServer } from "../../src/otlp/grpc/OtlpGrpcServer.js"
import { adminClientOf, installApp } from "./client.js"
import type { RunningServer } from "./server.js"
import { adminKeyOf } from "./server.js"

export type Transport = "http/json" | "http/protobuf" | "grpc"

export interface Destination {
  readonly url: string
  readonly grpcPort: number
  readonly token?: string | undefined
  readonly database?: string | undefined
  /** Another table than the signal's own, through its override header (or metadata). */
  readonly table?: string | undefined
  readonly gzip?: boolean | undefined
}

type Signal = "traces" | "logs" | "metrics"

const httpOptions = (signal: Signal, to: Destination) => {
  const headers: Record<string, string> = {}
  if (to.token !== undefined) headers.authorization = `Bearer ${to.token}`
  if (to.table !== undefined) headers[`x-service-${signal}-table`] = to.table
  const query = to.database === undefined ? "" : `?database=${to.database}`
  return {
    url: `${to.url}/otlp/v1/${signal}${query}`,
    headers,
    compression: to.gzip ? CompressionAlgorithm.GZIP : CompressionAlgorithm.NONE,
    timeoutMillis: 30_000
  }
}

const grpcOptions = (signal: Signal, to: Destination) => {
  const metadata = new Metadata()
  if (to.token !== undefined) metadata.set("authorization", `Bearer ${to.token}`)
  if (to.database !== undefined) metadata.set("x-service-database", to.database)
  if (to.table !== undefined) metadata.set(`x-service-${signal}-table`, to.table)
  return {
    url: `http://127.0.0.1:${to.grpcPort}`,
    credentials: credentials.createInsecure(),
    metadata,
    compression: to.gzip ? CompressionAlgorithm.GZIP : CompressionAlgorithm.NONE,
    timeoutMillis: 30_000
  }
}

interface Exporter<T> {
  export(items: T, done: (result: ExportResult) => void): void
  shutdown(): Promise<void>
}

export const traceExporter = (
  transport: Transport,
  to: Destination
): Exporter<Array<ReadableSpan>> =>
  transport === "grpc"
    ? new TracesGrpc(grpcOptions("traces", to))
    : transport === "http/json"
      ? new TracesJson(httpOptions("traces", to))
      : new TracesProto(httpOptions("traces", to))

export const logExporter = (
  transport: Transport,
  to: Destination
): Exporter<Array<ReadableLogRecord>> =>
  transport === "grpc"
    ? new LogsGrpc(grpcOptions("logs", to))
    : transport === "http/json"
      ? new LogsJson(httpOptions("logs", to))
      : new LogsProto(httpOptions("logs", to))

export const metricExporter = (transport: Transport, to: Destination): Exporter<ResourceMetrics> =>
  transport === "grpc"
    ? new MetricsGrpc(grpcOptions("metrics", to))
    : transport === "http/json"
      ? new MetricsJson(httpOptions("metrics", to))
      : new MetricsProto(httpOptions("metrics", to))

/** One export through `exporter`, then its shutdown; the exporter's own result. */
export const send = <T>(exporter: Exporter<T>, items: T) =>
  Effect.promise(async () => {
    const result = await new Promise<ExportResult>((resolve) => exporter.export(items, resolve))
    await exporter.shutdown()
    return result
  })

/** The test server's bound gRPC port. */
export const grpcPortOf = (server: RunningServer) =>
  Context.get(server.context, OtlpGrpcServer).port

/** Where the exporters send to, with the bootstrap admin key unless told otherwise. */
export const destinationOf = (server: RunningServer, options: Partial<Destination> = {}) => ({
  url: server.url,
  grpcPort: grpcPortOf(server),
  token: adminKeyOf(server),
  ...options
})

/**
 * Rows of `POST /v1/query` (admin key), for checking what the exporters stored. Anything
 * but the declared 200 is a defect that fails the test.
 */
export const query = (server: RunningServer, sql: string, database?: string) =>
  Effect.gen(function* () {
    const admin = yield* adminClientOf(server)
    const result = yield* admin.query.query({
      urlParams: database === undefined ? {} : { database },
      payload: QueryRequest.make({ sql })
    })
    return result.data
  }).pipe(Effect.orDie)

/** Installs the otlp-app on the default cluster as the bootstrap admin user. */
export const installOtlpApp = (server: RunningServer, email: string, password: string) =>
  installApp(server, "otlp-app", email, password)

export interface GrpcReply {
  readonly code: number
  readonly details: string
  readonly bytes: Uint8Array | undefined
}

/** One raw `Export` call (bytes in, bytes out), for statuses and malformed payloads. */
export const grpcCall = (
  port: number,
  service: string,
  bytes: Uint8Array,
  entries: Record<string, string> = {},
  gzip = false
) =>
  Effect.promise(
    () =>
      new Promise<GrpcReply>((resolve) => {
        const client = new Client(
          `127.0.0.1:${port}`,
          credentials.createInsecure(),
          gzip ? { "grpc.default_compression_algorithm": compressionAlgorithms.gzip } : {}
        )
        const metadata = new Metadata()
        for (const [key, value] of Object.entries(entries)) metadata.set(key, value)
        client.makeUnaryRequest(
          `/${service}/Export`,
          (b: Uint8Array) => Buffer.from(b),
          (b: Buffer) => new Uint8Array(b),
          bytes,
          metadata,
          (error, value) => {
            client.close()
            resolve(
              error
                ? { code: error.code, details: error.details, bytes: undefined }
                : { code: status.OK, details: "", bytes: value }
            )
          }
        )
      })
  )
