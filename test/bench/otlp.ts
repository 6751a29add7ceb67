/**
 * OTLP ingest throughput: batches of 512 spans sent by 4 concurrent clients as OTLP/HTTP
 * protobuf and as OTLP/gRPC, next to the same spans already flattened into collector-
 * schema rows and posted as JSON to `/v1/tables`, in one run. The payloads are encoded
 * once up front with the exporters' own serializer, so only the server is measured.
 */
import { Client, credentials, Metadata } from "@grpc/grpc-js"
import { ProtobufTraceSerializer } from "@opentelemetry/otlp-transformer"
import type { ReadableSpan } from "@opentelemetry/sdk-trace-base"
import { Effect } from "effect"
import { grpcPortOf, installOtlpApp } from "../support/otel.js"
import { nanos, spans } from "../support/otelData.js"
import { adminKeyOf, freshDataDir, startServer } from "../support/server.js"
import { timeSides } from "./clients.js"

const SPANS_PER_BATCH = 512
const BATCHES = 160
const CLIENTS = 4
const ROUNDS = 4
const ADMIN = "bench@example.com"
const PASSWORD = "bench admin password"
const KINDS = ["Internal", "Server", "Client", "Producer", "Consumer"]
const STATUS = ["Unset", "Ok", "Error"]

const text = (attributes: ReadableSpan["attributes"]) =>
  Object.fromEntries(Object.entries(attributes).map(([k, v]) => [k, String(v)]))

/** The row the traces transform makes of `span`, as JSON. */
const flattened = (span: ReadableSpan) => ({
  Timestamp: nanos(span.startTime),
  TraceId: span.spanContext().traceId,
  SpanId: span.spanContext().spanId,
  ParentSpanId: span.parentSpanContext?.spanId ?? "",
  SpanName: span.name,
  SpanKind: KINDS[span.kind],
  ServiceName: String(span.resource.attributes["service.name"]),
  ResourceAttributes: text(span.resource.attributes),
  ScopeName: span.instrumentationScope.name,
  ScopeVersion: span.instrumentationScope.version ?? "",
  SpanAttributes: text(span.attributes),
  Duration: (BigInt(nanos(span.endTime)) - BigInt(nanos(span.startTime))).toString(),
  StatusCode: STATUS[span.status.code],
  StatusMessage: span.status.message ?? "",
  Events: span.events.map((e) => ({
    Timestamp: nanos(e.time),
    Name: e.name,
    Attributes: text(e.attributes ?? {})
  })),
  Links: span.links.map((l) => ({ TraceId: l.context.traceId, SpanId: l.context.spanId }))
})

const grpcExport = (client: Client, metadata: Metadata, bytes: Uint8Array) =>
  new Promise<void>((resolve, reject) =>
    client.makeUnaryRequest(
      "/opentelemetry.proto.collector.trace.v1.TraceService/Export",
      (b: Uint8Array) => Buffer.from(b.buffer, b.byteOffset, b.length),
      (b: Buffer) => b,
      bytes,
      metadata,
      (error) => (error ? reject(error) : resolve())
    )
  )

const rate = (rows: number, seconds: number) => Math.round(rows / seconds).toLocaleString("en")

export const otlp = () =>
  Effect.runPromise(
    Effect.scoped(
      Effect.gen(function* () {
        // Built before the server starts: client and server share this event loop, and a
        // loop blocked for seconds lets pooled keep-alive connections expire under a request.
        const all = Array.from({ length: BATCHES }, (_, b) => spans(b, SPANS_PER_BATCH))
        const protobuf = all.map((batch) => ProtobufTraceSerializer.serializeRequest(batch)!)
        const rows = all.map((batch) =>
          new TextEncoder().encode(JSON.stringify(batch.map(flattened)))
        )
        const size = (list: ReadonlyArray<Uint8Array>) =>
          Math.round(list.reduce((n, b) => n + b.length, 0) / (BATCHES * SPANS_PER_BATCH))
        console.log(
          `${BATCHES} batches × ${SPANS_PER_BATCH} spans, ${CLIENTS} clients; ` +
            `${size(protobuf)} bytes/span as protobuf, ${size(rows)} bytes/row as JSON`
        )

        const server = yield* startServer(freshDataDir("bench-otlp"), {
          SLUICE_ADMIN_EMAIL: ADMIN,
          SLUICE_ADMIN_PASSWORD: PASSWORD
        })
        yield* installOtlpApp(server, ADMIN, PASSWORD)
        const token = adminKeyOf(server)

        const post = async (path: string, type: string, body: Uint8Array) => {
          const reply = await fetch(`${server.url}${path}`, {
            method: "POST",
            headers: { authorization: `Bearer ${token}`, "content-type": type },
            body
          })
          const answer = await reply.text()
          if (reply.status !== 200) throw new Error(`${path}: ${reply.status} ${answer}`)
        }
        const client = new Client(`127.0.0.1:${grpcPortOf(server)}`, credentials.createInsecure(), {
          "grpc.max_send_message_length": 100 * 1024 * 1024
        })
        yield* Effect.addFinalizer(() => Effect.sync(() => client.close()))
        const metadata = new Metadata()
        metadata.set("authorization", `Bearer ${token}`)
        metadata.set("x-service-traces-table", "bench_grpc")

        const sides = {
          http: (b: Uint8Array) =>
            post("/otlp/v1/traces", "application/x-protobuf", b).then(() => undefined),
          grpc: (b: Uint8Array) => grpcExport(client, metadata, b),
          tables: (b: Uint8Array) => post("/v1/tables/bench_flat", "application/json", b)
        }
        // The HTTP side's spans go to the default `traces` table; warm every path first.
        yield* Effect.promise(() =>
          Promise.all([sides.http(protobuf[0]!), sides.grpc(protobuf[0]!), sides.tables(rows[0]!)])
        )
        const { seconds } = yield* Effect.promise(() =>
          timeSides(ROUNDS, CLIENTS, {
            tables: { batches: rows, send: sides.tables },
            http: { batches: protobuf, send: sides.http },
            grpc: { batches: protobuf, send: sides.grpc }
          })
        )
        const spanCount = BATCHES * SPANS_PER_BATCH
        console.log(`/v1/tables (flattened JSON): ${rate(spanCount, seconds.tables)} rows/s`)
        console.log(`OTLP/HTTP protobuf:          ${rate(spanCount, seconds.http)} spans/s`)
        console.log(`OTLP/gRPC:                   ${rate(spanCount, seconds.grpc)} spans/s`)
        console.log(
          `ratio http/tables: ${(seconds.tables / seconds.http).toFixed(2)}, ` +
            `grpc/tables: ${(seconds.tables / seconds.grpc).toFixed(2)} (target ≥ 0.50)`
        )
      })
    )
  )
