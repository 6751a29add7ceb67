/**
 * Decoding OTLP export requests: OTLP/JSON and protobuf give the same model; hex ids,
 * 64-bit integers as strings or numbers, nanosecond times kept exact; bad input is a 400.
 */
import { create, equals, toBinary } from "@bufbuild/protobuf"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Exit } from "effect"
import { decodeExport } from "../../src/otlp/OtlpIngest.js"
import type { OtlpExport } from "../../src/otlp/OtlpIngest.js"
import { ExportTraceServiceRequestSchema } from "../../src/otlp/gen/opentelemetry/proto/collector/trace/v1/trace_service_pb.js"
import { flattenTraces } from "../../src/otlp/transforms/TracesTransform.js"
import * as F from "./fixtures.js"

const hexBytes = (hex: string) => new Uint8Array(Buffer.from(hex, "hex"))
const kv = (key: string, value: { case: "stringValue"; value: string }) => ({
  key,
  value: { value }
})

const tracesOf = (decoded: OtlpExport) => {
  if (decoded.signal !== "traces") throw new Error(`expected traces, got ${decoded.signal}`)
  return decoded.request
}

const failure = <A, E>(effect: Effect.Effect<A, E>) =>
  Effect.gen(function* () {
    const exit = yield* Effect.exit(effect)
    if (Exit.isSuccess(exit)) throw new Error("expected a failure")
    return JSON.stringify(exit.cause)
  })

describe("OTLP decoding", () => {
  it.effect("OTLP/JSON and protobuf of one request decode to the same model", () =>
    Effect.gen(function* () {
      const body = {
        resourceSpans: [
          {
            resource: { attributes: [{ key: "service.name", value: { stringValue: "checkout" } }] },
            scopeSpans: [
              {
                scope: { name: "lib", version: "1" },
                spans: [
                  {
                    traceId: F.TRACE_ID,
                    spanId: F.SPAN_ID,
                    name: "op",
                    kind: 3,
                    startTimeUnixNano: F.START_NS,
                    endTimeUnixNano: F.END_NS,
                    attributes: [{ key: "http.method", value: { stringValue: "GET" } }],
                    status: { code: 1 }
                  }
                ]
              }
            ]
          }
        ]
      }
      const message = create(ExportTraceServiceRequestSchema, {
        resourceSpans: [
          {
            resource: {
              attributes: [kv("service.name", { case: "stringValue", value: "checkout" })]
            },
            scopeSpans: [
              {
                scope: { name: "lib", version: "1" },
                spans: [
                  {
                    traceId: hexBytes(F.TRACE_ID),
                    spanId: hexBytes(F.SPAN_ID),
                    name: "op",
                    kind: 3,
                    startTimeUnixNano: BigInt(F.START_NS),
                    endTimeUnixNano: BigInt(F.END_NS),
                    attributes: [kv("http.method", { case: "stringValue", value: "GET" })],
                    status: { code: 1 }
                  }
                ]
              }
            ]
          }
        ]
      })
      const fromJson = tracesOf(yield* decodeExport("traces", "json", F.bytesOf(body)))
      const fromProto = tracesOf(
        yield* decodeExport(
          "traces",
          "protobuf",
          toBinary(ExportTraceServiceRequestSchema, message)
        )
      )
      expect(equals(ExportTraceServiceRequestSchema, message, fromJson as typeof message)).toBe(
        true
      )
      expect(equals(ExportTraceServiceRequestSchema, message, fromProto as typeof message)).toBe(
        true
      )
      expect(flattenTraces(fromJson)).toEqual(flattenTraces(fromProto))
    })
  )

  it.effect("hex ids become bytes; nanosecond times stay exact as strings and as numbers", () =>
    Effect.gen(function* () {
      // A bare number literal above 2^53, as some encoders write fixed64 fields.
      const text = JSON.stringify(F.traces()).replace(`"${F.START_NS}"`, F.START_NS)
      expect(text).toContain(`"startTimeUnixNano":${F.START_NS},`)
      const request = tracesOf(
        yield* decodeExport("traces", "json", new TextEncoder().encode(text))
      )
      const span = request.resourceSpans[0]!.scopeSpans[0]!.spans[0]!
      expect(span.startTimeUnixNano).toBe(1700000000123456789n)
      expect(span.endTimeUnixNano).toBe(1700000000987654321n)
      expect(Buffer.from(span.traceId).toString("hex")).toBe(F.TRACE_ID)
      expect(Buffer.from(span.parentSpanId).toString("hex")).toBe(F.PARENT_ID)
      expect(Buffer.from(span.links[0]!.spanId).toString("hex")).toBe(F.LINKED_SPAN)
      expect(span.kind).toBe(2)
    })
  )

  it.effect("64-bit integers as strings or numbers", () =>
    Effect.gen(function* () {
      const text = JSON.stringify(
        F.logs([
          F.logRecord({ attributes: [{ key: "n", value: { intValue: "9007199254740993" } }] }),
          F.logRecord({ attributes: [{ key: "n", value: { intValue: 42 } }] })
        ])
      ).replace('"9007199254740993"', "9007199254740993")
      const decoded = yield* decodeExport("logs", "json", new TextEncoder().encode(text))
      if (decoded.signal !== "logs") throw new Error("expected logs")
      const records = decoded.request.resourceLogs[0]!.scopeLogs[0]!.logRecords
      expect(records.map((r) => r.attributes[0]!.value!.value.value)).toEqual([
        9007199254740993n,
        42n
      ])
    })
  )

  it.effect("long digit runs inside strings are left alone", () =>
    Effect.gen(function* () {
      const text = JSON.stringify(
        F.logs([F.logRecord({ body: { stringValue: 'id "12345678901234567890" \\' } })])
      )
      const decoded = yield* decodeExport("logs", "json", new TextEncoder().encode(text))
      if (decoded.signal !== "logs") throw new Error("expected logs")
      const record = decoded.request.resourceLogs[0]!.scopeLogs[0]!.logRecords[0]!
      expect(record.body?.value).toEqual({
        case: "stringValue",
        value: 'id "12345678901234567890" \\'
      })
    })
  )

  it.effect("base64 ids are refused with a 400 that says ids are hex", () =>
    Effect.gen(function* () {
      const base64Id = Buffer.from(F.TRACE_ID, "hex").toString("base64")
      const cause = yield* failure(
        decodeExport("traces", "json", F.bytesOf(F.traces([F.span({ traceId: base64Id })])))
      )
      expect(cause).toContain("BadRequest")
      expect(cause).toContain("not hex (base64 ids are not accepted)")
    })
  )

  it.effect("malformed JSON, a wrong shape and malformed protobuf are 400s", () =>
    Effect.gen(function* () {
      const broken = yield* failure(decodeExport("traces", "json", new TextEncoder().encode("{")))
      expect(broken).toContain("not an OTLP/JSON traces export request")
      const shape = yield* failure(
        decodeExport("traces", "json", F.bytesOf({ resourceSpans: [{ scopeSpans: "no" }] }))
      )
      expect(shape).toContain("BadRequest")
      const proto = yield* failure(
        decodeExport("traces", "protobuf", new Uint8Array([0x0a, 0xff, 0xff, 0x01, 0x02]))
      )
      expect(proto).toContain("not a protobuf traces export request")
    })
  )

  it.effect("an empty export decodes to no records, in both encodings", () =>
    Effect.gen(function* () {
      expect(tracesOf(yield* decodeExport("traces", "json", F.bytesOf({}))).resourceSpans).toEqual(
        []
      )
      expect(
        tracesOf(yield* decodeExport("traces", "protobuf", new Uint8Array())).resourceSpans
      ).toEqual([])
    })
  )
})
