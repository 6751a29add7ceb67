/**
 * `POST /v1/tables/{t}?transform=otlp-*` against the real server: rows
 * in the one table the path names, schemaless, with the field names of the OTLP/JSON
 * encoding and the resource's attributes as top-level dotted columns, so SQL written
 * against OTLP/JSON (`SELECT name, traceId … WHERE service.name = …`) works. Bad
 * payloads are 400s that insert nothing; an empty export is accepted.
 */
import { describe, expect, layer } from "@effect/vitest"
import { toBinary } from "@bufbuild/protobuf"
import { ExportResultCode } from "@opentelemetry/core"
import { OTLPTraceExporter as TracesJson } from "@opentelemetry/exporter-trace-otlp-http"
import { OTLPTraceExporter as TracesProto } from "@opentelemetry/exporter-trace-otlp-proto"
import { Effect } from "effect"
import { gzipSync } from "node:zlib"
import { adminKeyOf, TestServer, freshDataDir } from "../support/server.js"
import { send as export_ } from "../support/otel.js"
import { spans, traceIdOf } from "../support/otelData.js"
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

const tablesLike = (pattern: string) =>
  Effect.map(
    query(
      `SELECT name FROM system.tables WHERE database = currentDatabase() AND name LIKE '${pattern}' ORDER BY name`
    ),
    (rows) => rows.map((row) => row.name)
  )

/** The same export from a second service, so a filter on `service.name` has work to do. */
const paymentsSpan = F.span({
  traceId: "0000000000000000000000000000beef",
  spanId: "00000000000000bb",
  name: "charge"
})
const twoServices = {
  resourceSpans: [
    ...F.traces().resourceSpans,
    {
      resource: { attributes: [{ key: "service.name", value: { stringValue: "payments" } }] },
      scopeSpans: [{ scope: F.scope, spans: [paymentsSpan] }]
    }
  ]
}

layer(TestServer.layer(freshDataDir()), { excludeTestServices: true, timeout: 120_000 })(
  "OTLP transforms on table inserts",
  (it) => {
    describe("otlp-traces", () => {
      it.effect("the spec's query works: SELECT name, traceId … WHERE service.name = …", () =>
        Effect.gen(function* () {
          const reply = yield* send("spans", "otlp-traces", twoServices)
          expect(reply.status, reply.text).toBe(200)
          expect(reply.json).toEqual({ inserted: 2 })
          expect(
            yield* query("SELECT name, traceId FROM spans WHERE service.name = 'checkout'")
          ).toEqual([{ name: "GET /cart", traceId: F.TRACE_ID }])
          expect(
            yield* query("SELECT name, traceId FROM spans WHERE service.name = 'payments'")
          ).toEqual([{ name: "charge", traceId: "0000000000000000000000000000beef" }])
        })
      )

      it.effect("every field of a span under its OTLP/JSON name, times as exact strings", () =>
        Effect.gen(function* () {
          const rows = yield* query(
            "SELECT traceId, spanId, parentSpanId, traceState, kind, startTimeUnixNano, " +
              "endTimeUnixNano, status.code, status.message, attributes.http.method, " +
              "attributes.http.status_code, attributes.retry, attributes.ratio, attributes.blob, " +
              "service.name, host.cpus, scope.name, scope.version, " +
              "toString(toUInt64(endTimeUnixNano) - toUInt64(startTimeUnixNano)) AS duration, " +
              "length(events) AS events, length(links) AS links " +
              "FROM spans WHERE name = 'GET /cart'"
          )
          expect(rows).toEqual([
            {
              traceId: F.TRACE_ID,
              spanId: F.SPAN_ID,
              parentSpanId: F.PARENT_ID,
              traceState: "vendor=1",
              kind: "2",
              startTimeUnixNano: F.START_NS,
              endTimeUnixNano: F.END_NS,
              "status.code": "2",
              "status.message": "upstream timeout",
              "attributes.http.method": "GET",
              "attributes.http.status_code": "200",
              "attributes.retry": true,
              "attributes.ratio": 0.25,
              "attributes.blob": "AQID",
              "service.name": "checkout",
              "host.cpus": "8",
              "scope.name": "io.sluice.test",
              "scope.version": "1.2.3",
              // 1700000000987654321 - 1700000000123456789, worked out by hand.
              duration: "864197532",
              events: "1",
              links: "1"
            }
          ])
          const nested = yield* query(
            "SELECT events[1].name AS event, events[1].timeUnixNano AS at, " +
              "events[1].attributes.cache.key AS key, links[1].traceId AS linked " +
              "FROM spans WHERE name = 'GET /cart'"
          )
          expect(nested).toEqual([
            { event: "cache.miss", at: F.EVENT_NS, key: "cart:42", linked: F.LINKED_TRACE }
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
            "traceId, spanId, name, kind, startTimeUnixNano, attributes.http.status_code, attributes.ratio, service.name"
          const viaProto = yield* query(`SELECT ${columns} FROM proto_spans`)
          const viaJson = yield* query(`SELECT ${columns} FROM spans WHERE spanId = '${F.SPAN_ID}'`)
          expect(viaProto).toEqual(viaJson)
          expect(viaProto[0]).toMatchObject({ startTimeUnixNano: F.START_NS, traceId: F.TRACE_ID })
        })
      )

      it.effect("the OpenTelemetry JS exporters (JSON and protobuf) pointed at a transform", () =>
        Effect.gen(function* () {
          const server = yield* TestServer
          const options = (table: string) => ({
            url: `${server.url}/v1/tables/${table}?transform=otlp-traces`,
            headers: { authorization: `Bearer ${adminKeyOf(server)}` }
          })
          const json = yield* export_(new TracesJson(options("sdk_json")), spans(7, 3))
          expect(json.code, String(json.error)).toBe(ExportResultCode.SUCCESS)
          const proto = yield* export_(new TracesProto(options("sdk_proto")), spans(8, 3))
          expect(proto.code, String(proto.error)).toBe(ExportResultCode.SUCCESS)
          for (const [table, batch] of [
            ["sdk_json", 7],
            ["sdk_proto", 8]
          ] as const) {
            const rows = yield* query(
              `SELECT name, traceId, kind, host.name FROM ${table} ` +
                "WHERE service.name = 'checkout' ORDER BY name"
            )
            // otelData.ts: three server spans (kind 2) named GET /items/<i>, on host test-host-1.
            expect(rows).toEqual(
              [0, 1, 2].map((i) => ({
                name: `GET /items/${i}`,
                traceId: traceIdOf(batch, i),
                kind: "2",
                "host.name": "test-host-1"
              }))
            )
          }
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
          expect(broken.json).toMatchObject({ error: "bad_request" })
          expect(yield* tablesLike("strict")).toEqual([])
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

      it.effect("a resource attribute never replaces a span's field; nested values are paths", () =>
        Effect.gen(function* () {
          const resource = {
            attributes: [
              { key: "service.name", value: { stringValue: "checkout" } },
              { key: "name", value: { stringValue: "from the resource" } },
              {
                key: "deployment",
                value: {
                  kvlistValue: { values: [{ key: "region", value: { stringValue: "eu-1" } }] }
                }
              }
            ]
          }
          const body = { resourceSpans: [{ resource, scopeSpans: [{ spans: [F.span()] }] }] }
          const reply = yield* send("clash", "otlp-traces", body)
          expect(reply.json, reply.text).toEqual({ inserted: 1 })
          expect(yield* query("SELECT name, deployment.region, scope.name FROM clash")).toEqual([
            { name: "GET /cart", "deployment.region": "eu-1", "scope.name": "" }
          ])
        })
      )

      it.effect("an insert token inserts a retried export once", () =>
        Effect.gen(function* () {
          const token = { "idempotency-key": "export-1" }
          const first = yield* send("retried", "otlp-traces", F.traces(), token)
          const again = yield* send("retried", "otlp-traces", F.traces(), token)
          expect([first.json, again.json]).toEqual([{ inserted: 1 }, { inserted: 1 }])
          expect(yield* count("retried")).toBe(1)
        })
      )
    })

    describe("otlp-logs", () => {
      it.effect("one row per log record under its OTLP/JSON names", () =>
        Effect.gen(function* () {
          const reply = yield* send("app_logs", "otlp-logs", F.logs())
          expect(reply.json, reply.text).toEqual({ inserted: 1 })
          const rows = yield* query(
            "SELECT timeUnixNano, observedTimeUnixNano, severityNumber, severityText, body, " +
              "attributes.user.id, traceId, spanId, flags, eventName, service.name, scope.version " +
              "FROM app_logs WHERE service.name = 'checkout'"
          )
          expect(rows).toEqual([
            {
              timeUnixNano: F.START_NS,
              observedTimeUnixNano: F.END_NS,
              severityNumber: "17",
              severityText: "ERROR",
              body: "payment declined",
              // Above 2^53: every digit kept.
              "attributes.user.id": "9007199254740993",
              traceId: F.TRACE_ID,
              spanId: F.SPAN_ID,
              flags: "1",
              eventName: "payment.failed",
              "service.name": "checkout",
              "scope.version": "1.2.3"
            }
          ])
        })
      )
    })

    describe("otlp-metrics", () => {
      it.effect("every data point lands in T itself (no T_gauge …), told apart by type", () =>
        Effect.gen(function* () {
          const reply = yield* send("m", "otlp-metrics", F.metrics())
          expect(reply.json, reply.text).toEqual({ inserted: 5 })
          expect(yield* tablesLike("m%")).toEqual(["m"])
          const rows = yield* query(
            "SELECT type, name, unit, asInt, asDouble, count, sum, min, max, " +
              "aggregationTemporality, isMonotonic, attributes.route, timeUnixNano, service.name " +
              "FROM m ORDER BY name"
          )
          const point = {
            "attributes.route": "/cart",
            timeUnixNano: F.END_NS,
            "service.name": "checkout"
          }
          const none = { asInt: null, asDouble: null, count: null, sum: null, min: null, max: null }
          // F.metricsList, by name: latency, queue.depth, requests, rpc.duration, size.
          expect(rows).toEqual([
            {
              ...none,
              ...point,
              type: "histogram",
              name: "latency",
              unit: "ms",
              count: "6",
              sum: 33.5,
              min: 0.5,
              max: 12,
              aggregationTemporality: "1",
              isMonotonic: null
            },
            {
              ...none,
              ...point,
              type: "gauge",
              name: "queue.depth",
              unit: "1",
              asInt: "7",
              aggregationTemporality: null,
              isMonotonic: null
            },
            {
              ...none,
              ...point,
              type: "sum",
              name: "requests",
              unit: "1",
              asDouble: 42.5,
              aggregationTemporality: "2",
              isMonotonic: true
            },
            {
              ...none,
              ...point,
              type: "summary",
              name: "rpc.duration",
              unit: "s",
              count: "10",
              sum: 4.5,
              aggregationTemporality: null,
              isMonotonic: null
            },
            {
              ...none,
              ...point,
              type: "exponential_histogram",
              name: "size",
              unit: "By",
              count: "5",
              sum: 100,
              min: 0,
              max: 40,
              aggregationTemporality: "2",
              isMonotonic: null
            }
          ])
          const of = (type: string, columns: string) =>
            query(`SELECT ${columns} FROM m WHERE type = '${type}'`)
          expect(yield* of("histogram", "bucketCounts, explicitBounds")).toEqual([
            { bucketCounts: ["1", "2", "3"], explicitBounds: [5, 10] }
          ])
          expect(
            yield* of(
              "exponential_histogram",
              "scale, zeroCount, positive.offset, positive.bucketCounts"
            )
          ).toEqual([
            {
              scale: "3",
              zeroCount: "1",
              "positive.offset": "-2",
              "positive.bucketCounts": ["1", "3"]
            }
          ])
          expect(
            yield* of("summary", "quantileValues[2].quantile AS q, quantileValues[2].value AS v")
          ).toEqual([{ q: 0.99, v: 1.2 }])
          expect(
            yield* of(
              "sum",
              "exemplars[1].traceId AS t, exemplars[1].asDouble AS v, exemplars[1].filteredAttributes.user AS u"
            )
          ).toEqual([{ t: F.TRACE_ID, v: 1.5, u: "u1" }])
        })
      )
    })

    describe("one resource sent bare (the SDK's insert of {resource, scopeSpans})", () => {
      it.effect("a bare ResourceSpans, ResourceLogs or ResourceMetrics is that one resource", () =>
        Effect.gen(function* () {
          const spans = yield* send("bare_spans", "otlp-traces", F.traces().resourceSpans[0])
          expect(spans.json, spans.text).toEqual({ inserted: 1 })
          expect(yield* query("SELECT name, traceId FROM bare_spans")).toEqual([
            { name: "GET /cart", traceId: F.TRACE_ID }
          ])
          const logs = yield* send("bare_logs", "otlp-logs", F.logs().resourceLogs[0])
          expect(logs.json, logs.text).toEqual({ inserted: 1 })
          expect(yield* count("bare_logs")).toBe(1)
          const metrics = yield* send(
            "bare_metrics",
            "otlp-metrics",
            F.metrics().resourceMetrics[0]
          )
          expect(metrics.status, metrics.text).toBe(200)
          const whole = yield* send("whole_metrics", "otlp-metrics", F.metrics())
          expect(metrics.json).toEqual(whole.json)
          expect(yield* count("bare_metrics")).toBe(yield* count("whole_metrics"))
        })
      )

      it.effect("an array of resources is those resources", () =>
        Effect.gen(function* () {
          const resources = [...F.traces().resourceSpans, ...twoServices.resourceSpans]
          const reply = yield* send("bare_many", "otlp-traces", resources)
          expect(reply.json, reply.text).toEqual({ inserted: 3 })
        })
      )

      it.effect("an object of neither shape is a 400 naming both, and creates nothing", () =>
        Effect.gen(function* () {
          const scopeOnly = { scope: F.scope, spans: [F.span()] }
          const reply = yield* send("bare_wrong", "otlp-traces", scopeOnly)
          expect(reply.status, reply.text).toBe(400)
          expect(reply.json).toEqual({
            error: "bad_request",
            message:
              'The body is not an OTLP/JSON traces export request: it has neither "resourceSpans" nor a resource\'s "scopeSpans".',
            hint: 'Send {"resourceSpans": [...]} (an export request), or one resource as {"resource": {...}, "scopeSpans": [...]}.'
          })
          const logs = yield* send("bare_wrong", "otlp-logs", { logRecords: [F.logRecord()] })
          expect(logs.status, logs.text).toBe(400)
          expect(logs.json).toMatchObject({ message: expect.stringContaining('"scopeLogs"') })
          expect(yield* tablesLike("bare_wrong%")).toEqual([])
        })
      )
    })

    describe("refusals", () => {
      it.effect("a table of records takes OTLP rows too: it is schemaless like any insert", () =>
        Effect.gen(function* () {
          const server = yield* TestServer
          const plain = yield* insert(server, "plain", JSON.stringify({ a: 1 }))
          expect(plain.status).toBe(200)
          const reply = yield* send("plain", "otlp-traces", F.traces())
          expect(reply.json, reply.text).toEqual({ inserted: 1 })
          expect(yield* count("plain")).toBe(2)
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
          expect(yield* tablesLike("nothing%")).toEqual([])
        })
      )

      it.effect("other content types are 415", () =>
        Effect.gen(function* () {
          const reply = yield* send("odd", "otlp-logs", "a,b", { "content-type": "text/csv" })
          expect(reply.status).toBe(415)
          expect(reply.json).toMatchObject({ error: expect.any(String) })
        })
      )
    })
  }
)
