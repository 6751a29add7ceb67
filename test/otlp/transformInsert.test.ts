/**
 * `POST /v1/tables/{t}?transform=otlp-*` against the real server: SQL over the typed
 * tables sees exactly what was sent (counts, ids, attributes, nanosecond times); bad
 * payloads are 400s that insert nothing; an empty export is accepted.
 */
import { describe, expect, layer } from "@effect/vitest"
import { toBinary } from "@bufbuild/protobuf"
import { Effect } from "effect"
import { gzipSync } from "node:zlib"
import { TestServer, freshDataDir } from "../support/server.js"
import { insert, sql } from "../tables/helpers.js"
import { decodeExport } from "../../src/otlp/OtlpIngest.js"
import { ExportTraceServiceRequestSchema } from "../../src/otlp/gen/opentelemetry/proto/collector/trace/v1/trace_service_pb.js"
import type { ExportTraceServiceRequest } from "../../src/otlp/gen/opentelemetry/proto/collector/trace/v1/trace_service_pb.js"
import * as F from "./fixtures.js"

const send = (
  table: string,
  transform: string,
  body: unknown,
  headers: Record<string, string> = {}
) =>
  Effect.flatMap(TestServer, (server) =>
    insert(
      server,
      table,
      body instanceof Uint8Array || typeof body === "string" ? body : JSON.stringify(body),
      { "content-type": "application/json", ...headers },
      `?transform=${transform}`
    )
  )

const query = (text: string) => Effect.flatMap(TestServer, (server) => sql(server, text))

const count = (table: string) =>
  Effect.map(query(`SELECT count() AS c FROM ${table}`), (rows) => Number(rows[0]?.c))

layer(TestServer.layer(freshDataDir()), { excludeTestServices: true, timeout: 120_000 })(
  "OTLP transforms on table inserts",
  (it) => {
    describe("otlp-traces", () => {
      it.effect("spans land in an otel_traces table, queryable to the nanosecond", () =>
        Effect.gen(function* () {
          const second = F.span({ spanId: "00000000000000aa", name: "POST /pay", parentSpanId: "" })
          const reply = yield* send("spans", "otlp-traces", F.traces([F.span(), second]))
          expect(reply.status, reply.text).toBe(200)
          expect(reply.json).toEqual({ inserted: 2 })
          const rows = yield* query(
            "SELECT TraceId, SpanId, ParentSpanId, SpanName, SpanKind, ServiceName, " +
              "toString(toUnixTimestamp64Nano(Timestamp)) AS ts, toString(Duration) AS d, " +
              "SpanAttributes['http.method'] AS method, SpanAttributes['http.status_code'] AS code, " +
              "ResourceAttributes['host.cpus'] AS cpus, ScopeName, StatusCode, StatusMessage, " +
              "Events.Name AS en, arrayMap(t -> toString(toUnixTimestamp64Nano(t)), Events.Timestamp) AS et, " +
              "Events.Attributes[1]['cache.key'] AS ek, Links.TraceId AS lt, Links.SpanId AS ls " +
              "FROM spans ORDER BY SpanName"
          )
          expect(rows).toEqual([
            {
              TraceId: F.TRACE_ID,
              SpanId: F.SPAN_ID,
              ParentSpanId: F.PARENT_ID,
              SpanName: "GET /cart",
              SpanKind: "Server",
              ServiceName: "checkout",
              ts: F.START_NS,
              d: "864197532",
              method: "GET",
              code: "200",
              cpus: "8",
              ScopeName: "io.sluice.test",
              StatusCode: "Error",
              StatusMessage: "upstream timeout",
              en: ["cache.miss"],
              et: [F.EVENT_NS],
              ek: "cart:42",
              lt: [F.LINKED_TRACE],
              ls: [F.LINKED_SPAN]
            },
            expect.objectContaining({
              SpanName: "POST /pay",
              SpanId: "00000000000000aa",
              ParentSpanId: ""
            })
          ])
        })
      )

      it.effect("protobuf bodies give the same rows as OTLP/JSON", () =>
        Effect.gen(function* () {
          const decoded = yield* decodeExport("traces", "json", F.bytesOf(F.traces()))
          const binary = toBinary(
            ExportTraceServiceRequestSchema,
            decoded.request as ExportTraceServiceRequest
          )
          const reply = yield* send("proto_spans", "otlp-traces", binary, {
            "content-type": "application/x-protobuf"
          })
          expect(reply.json, reply.text).toEqual({ inserted: 1 })
          const columns =
            "TraceId, SpanId, toString(toUnixTimestamp64Nano(Timestamp)) AS ts, SpanAttributes, Events.Attributes, Links.SpanId"
          const viaProto = yield* query(`SELECT ${columns} FROM proto_spans`)
          const viaJson = yield* query(`SELECT ${columns} FROM spans WHERE SpanId = '${F.SPAN_ID}'`)
          expect(viaProto).toEqual(viaJson)
          expect(viaProto[0]).toMatchObject({ ts: F.START_NS, TraceId: F.TRACE_ID })
        })
      )

      it.effect("gzip bodies, and invalid spans dropped and counted", () =>
        Effect.gen(function* () {
          const body = gzipSync(
            JSON.stringify(F.traces([F.span(), F.span({ traceId: "abcdef", name: "bad" })]))
          )
          const reply = yield* send("zipped", "otlp-traces", body, { "content-encoding": "gzip" })
          expect(reply.status, reply.text).toBe(200)
          expect(reply.json).toEqual({
            inserted: 1,
            rejected: 1,
            message: expect.stringContaining("trace_id is 3 bytes, not 16")
          })
          expect(yield* count("zipped")).toBe(1)
        })
      )

      it.effect("base64 ids and malformed JSON are 400s that insert nothing", () =>
        Effect.gen(function* () {
          const base64 = Buffer.from(F.TRACE_ID, "hex").toString("base64")
          const refused = yield* send(
            "strict",
            "otlp-traces",
            F.traces([F.span(), F.span({ traceId: base64 })])
          )
          expect(refused.status).toBe(400)
          expect(refused.json).toMatchObject({
            error: "bad_request",
            message: expect.stringContaining("base64 ids are not accepted")
          })
          const broken = yield* send("strict", "otlp-traces", '{"resourceSpans": [')
          expect(broken.status).toBe(400)
          const tables = yield* query("SELECT name FROM system.tables WHERE name = 'strict'")
          expect(tables).toEqual([])
        })
      )

      it.effect("an empty export is accepted and inserts nothing", () =>
        Effect.gen(function* () {
          const reply = yield* send("quiet", "otlp-traces", {})
          expect(reply.status, reply.text).toBe(200)
          expect(reply.json).toEqual({ inserted: 0 })
          const more = yield* send("quiet", "otlp-traces", { resourceSpans: [] })
          expect(more.json).toEqual({ inserted: 0 })
        })
      )
    })

    describe("otlp-logs", () => {
      it.effect("records land in an otel_logs table", () =>
        Effect.gen(function* () {
          const reply = yield* send("app_logs", "otlp-logs", F.logs())
          expect(reply.json, reply.text).toEqual({ inserted: 1 })
          const rows = yield* query(
            "SELECT toString(toUnixTimestamp64Nano(Timestamp)) AS ts, TraceId, SpanId, TraceFlags, " +
              "SeverityText, SeverityNumber, ServiceName, Body, LogAttributes['user.id'] AS user, " +
              "ResourceSchemaUrl, ScopeVersion, EventName FROM app_logs"
          )
          expect(rows).toEqual([
            {
              ts: F.START_NS,
              TraceId: F.TRACE_ID,
              SpanId: F.SPAN_ID,
              TraceFlags: 1,
              SeverityText: "ERROR",
              SeverityNumber: 17,
              ServiceName: "checkout",
              Body: "payment declined",
              user: "9007199254740993",
              ResourceSchemaUrl: "https://opentelemetry.io/schemas/1.26.0",
              ScopeVersion: "1.2.3",
              EventName: "payment.failed"
            }
          ])
        })
      )
    })

    describe("otlp-metrics", () => {
      it.effect("each metric type lands in its own {t}_<type> table", () =>
        Effect.gen(function* () {
          const reply = yield* send("m", "otlp-metrics", F.metrics())
          expect(reply.json, reply.text).toEqual({ inserted: 5 })
          const gauge = yield* query(
            "SELECT MetricName, Value, Attributes['route'] AS route, " +
              "toString(toUnixTimestamp64Nano(TimeUnix)) AS t FROM m_gauge"
          )
          expect(gauge).toEqual([
            { MetricName: "queue.depth", Value: 7, route: "/cart", t: F.END_NS }
          ])
          const sum = yield* query(
            "SELECT Value, IsMonotonic, AggregationTemporality, Exemplars.TraceId AS et FROM m_sum"
          )
          expect(sum).toEqual([
            { Value: 42.5, IsMonotonic: true, AggregationTemporality: 2, et: [F.TRACE_ID] }
          ])
          const histogram = yield* query(
            "SELECT toString(Count) AS c, Sum, arrayMap(x -> toString(x), BucketCounts) AS b, ExplicitBounds, Min, Max FROM m_histogram"
          )
          expect(histogram).toEqual([
            { c: "6", Sum: 33.5, b: ["1", "2", "3"], ExplicitBounds: [5, 10], Min: 0.5, Max: 12 }
          ])
          const exponential = yield* query(
            "SELECT Scale, PositiveOffset, arrayMap(x -> toString(x), PositiveBucketCounts) AS p, toString(ZeroCount) AS z FROM m_exponential_histogram"
          )
          expect(exponential).toEqual([{ Scale: 3, PositiveOffset: -2, p: ["1", "3"], z: "1" }])
          const summary = yield* query(
            "SELECT ValueAtQuantiles.Quantile AS q, ValueAtQuantiles.Value AS v FROM m_summary"
          )
          expect(summary).toEqual([{ q: [0.5, 0.99], v: [0.3, 1.2] }])
        })
      )
    })

    describe("refusals", () => {
      it.effect("a table that is not an OTLP table is a 400", () =>
        Effect.gen(function* () {
          const server = yield* TestServer
          const plain = yield* insert(server, "plain", JSON.stringify({ a: 1 }))
          expect(plain.status).toBe(200)
          const reply = yield* send("plain", "otlp-traces", F.traces())
          expect(reply.status, reply.text).toBe(400)
          expect(yield* count("plain")).toBe(1)
        })
      )

      it.effect("a metrics request with a base64 exemplar id creates and inserts nothing", () =>
        Effect.gen(function* () {
          const base64 = Buffer.from(F.TRACE_ID, "hex").toString("base64")
          const bad = {
            name: "g",
            gauge: { dataPoints: [{ asDouble: 1, exemplars: [{ traceId: base64, asDouble: 1 }] }] }
          }
          const reply = yield* send("nothing", "otlp-metrics", F.metrics([...F.metricsList, bad]))
          expect(reply.status, reply.text).toBe(400)
          const tables = yield* query("SELECT name FROM system.tables WHERE name LIKE 'nothing%'")
          expect(tables).toEqual([])
        })
      )

      it.effect("other content types are 415", () =>
        Effect.gen(function* () {
          const reply = yield* send("odd", "otlp-logs", "a,b", { "content-type": "text/csv" })
          expect(reply.status).toBe(415)
        })
      )
    })
  }
)
