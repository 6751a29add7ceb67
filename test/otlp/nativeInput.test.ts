/**
 * OTLP/HTTP requests a client can get wrong, each with the answer it sees: credentials,
 * content types and encodings, malformed payloads, a gzip bomb, bad table and database
 * names, empty exports and partially invalid ones. A refused request stores nothing.
 */
import { create, fromBinary, toBinary } from "@bufbuild/protobuf"
import { expect, layer } from "@effect/vitest"
import { Effect, Schema } from "effect"
import { gzipSync } from "node:zlib"
import {
  ExportTraceServiceRequestSchema,
  ExportTraceServiceResponseSchema
} from "../../src/otlp/gen/opentelemetry/proto/collector/trace/v1/trace_service_pb.js"
import { endlessUpload } from "../support/endlessUpload.js"
import { installOtlpApp, query } from "../support/otel.js"
import { countOf } from "../support/otelChecks.js"
import type { Reply } from "../support/server.js"
import { adminKeyOf, call, freshDataDir, TestServer, bodyOf } from "../support/server.js"
import { ErrorBody } from "../../domain/Errors.js"
import { CreatedApiKey } from "../../domain/api/KeysApi.js"
import { OtlpExportResponse } from "../../domain/api/OtlpApi.js"

const CreatedKey = Schema.Struct({ key: CreatedApiKey })

const ADMIN = "otlp-input@example.com"
const PASSWORD = "otlp input password"
const JSON_TYPE = { "content-type": "application/json" }
const PROTOBUF = { "content-type": "application/x-protobuf" }

const post = (
  path: string,
  body: string | Uint8Array,
  headers: Record<string, string>,
  token?: string | null
) =>
  Effect.flatMap(TestServer, (server) =>
    call(server, "POST", path, {
      ...(token === null ? {} : { token: token ?? adminKeyOf(server) }),
      rawBody: body,
      headers
    })
  )

const expectError = (reply: Reply, status: number, error: string) => {
  expect(reply.status, reply.text).toBe(status)
  expect(reply.json).toMatchObject({ error })
}

const span = (traceId: string, name: string) => ({
  traceId,
  spanId: "00f067aa0ba902b7",
  name,
  kind: 2,
  startTimeUnixNano: "1750000000123456789",
  endTimeUnixNano: "1750000000223456789"
})
const tracesJson = (...spans: ReadonlyArray<object>) =>
  JSON.stringify({ resourceSpans: [{ scopeSpans: [{ spans }] }] })
const GOOD_TRACE = "5b8efff798038103d269b633813fc60c"

/**
 * POSTs gzip members of 10 MiB of zeros (~10 KB each) for as long as the server reads
 * them, and answers with the server's reply, which must come while the upload goes on.
 */
const endlessGzipBomb = (url: string, token: string) =>
  endlessUpload(
    `${url}/otlp/v1/traces`,
    { authorization: `Bearer ${token}`, ...PROTOBUF, "content-encoding": "gzip" },
    gzipSync(Buffer.alloc(10 * 1024 * 1024))
  )

layer(
  TestServer.layer(freshDataDir("otlp-input"), {
    SLUICE_ADMIN_EMAIL: ADMIN,
    SLUICE_ADMIN_PASSWORD: PASSWORD
  }),
  { excludeTestServices: true, timeout: 120_000 }
)("OTLP/HTTP bad input", (it) => {
  it.effect("credentials: none or unknown is a 401, a read-only key a 403", () =>
    Effect.gen(function* () {
      const server = yield* TestServer
      yield* installOtlpApp(server, ADMIN, PASSWORD)
      expectError(yield* post("/otlp/v1/logs", "{}", JSON_TYPE, null), 401, "unauthorized")
      expectError(yield* post("/otlp/v1/logs", "{}", JSON_TYPE, "rt_unknown"), 401, "unauthorized")
      const created = yield* call(server, "POST", "/v1/keys", {
        token: adminKeyOf(server),
        body: { name: "reader", permission: "read_only" }
      })
      const reader = bodyOf(CreatedKey, created).key.token
      expectError(yield* post("/otlp/v1/logs", "{}", JSON_TYPE, reader), 403, "forbidden")
    })
  )

  it.effect("content types other than JSON and protobuf are a 415, so is brotli", () =>
    Effect.gen(function* () {
      const body = tracesJson(span(GOOD_TRACE, "typed"))
      const text = yield* post("/otlp/v1/traces", body, { "content-type": "text/plain" })
      expectError(text, 415, "unsupported_media_type")
      expect(bodyOf(ErrorBody, text).hint).toContain("application/x-protobuf")
      expectError(yield* post("/otlp/v1/traces", body, {}), 415, "unsupported_media_type")
      const br = yield* post("/otlp/v1/traces", body, { ...JSON_TYPE, "content-encoding": "br" })
      expectError(br, 415, "unsupported_media_type")
      expect(yield* countOf(yield* TestServer, "traces")).toBe(0)
    })
  )

  it.effect("malformed protobuf, JSON and gzip are 400s that store nothing", () =>
    Effect.gen(function* () {
      const garbage = new Uint8Array([0x0a, 0xff, 0xff, 0xff, 0xff, 0x0f, 0x01])
      expectError(yield* post("/otlp/v1/traces", garbage, PROTOBUF), 400, "bad_request")
      expectError(yield* post("/otlp/v1/logs", "{not json", JSON_TYPE), 400, "bad_request")
      // Base64 ids (what a generic protobuf JSON encoder writes) are not OTLP/JSON.
      const base64 = tracesJson(span(Buffer.from(GOOD_TRACE, "hex").toString("base64"), "b64"))
      const b64 = yield* post("/otlp/v1/traces", base64, JSON_TYPE)
      expectError(b64, 400, "bad_request")
      expect(bodyOf(ErrorBody, b64).message).toMatch(/hex/i)
      const notGzip = { ...JSON_TYPE, "content-encoding": "gzip" }
      expectError(yield* post("/otlp/v1/metrics", "{}", notGzip), 400, "bad_request")
      const server = yield* TestServer
      expect(yield* countOf(server, "traces")).toBe(0)
      expect(yield* countOf(server, "logs")).toBe(0)
    })
  )

  it.effect("past 100 MiB is a 413: a gzip bomb as soon as it inflates that far", () =>
    Effect.gen(function* () {
      const server = yield* TestServer
      // The upload never ends, so an answer shows the server stopped reading (how little
      // it reads is the body reader's own test, nativeBody.test.ts).
      const reply = yield* endlessGzipBomb(server.url, adminKeyOf(server))
      expectError(reply, 413, "payload_too_large")
      // Uncompressed, the declared length alone decides, before any byte is read.
      const plain = yield* post("/otlp/v1/traces", new Uint8Array(100 * 1024 * 1024 + 1), PROTOBUF)
      expectError(plain, 413, "payload_too_large")
      expect(yield* countOf(server, "traces")).toBe(0)
    })
  )

  it.effect("bad table header, unknown database: 400 and 404", () =>
    Effect.gen(function* () {
      const body = tracesJson(span(GOOD_TRACE, "placed"))
      const badTable = yield* post("/otlp/v1/traces", body, {
        ...JSON_TYPE,
        "x-service-traces-table": "no-dashes!"
      })
      expectError(badTable, 400, "bad_request")
      expect(bodyOf(ErrorBody, badTable).message).toContain("x-service-traces-table")
      expectError(
        yield* post("/otlp/v1/traces?database=nowhere", body, JSON_TYPE),
        404,
        "not_found"
      )
    })
  )

  it.effect("an empty export is accepted in its own encoding and stores nothing", () =>
    Effect.gen(function* () {
      const json = yield* post("/otlp/v1/traces", "{}", JSON_TYPE)
      expect(json.status, json.text).toBe(200)
      expect(json.json).toEqual({})
      const empty = yield* post("/otlp/v1/logs", new Uint8Array(0), PROTOBUF)
      expect(empty.status, empty.text).toBe(200)
      expect(empty.headers.get("content-type")).toBe("application/x-protobuf")
      expect(empty.text).toBe("")
      const noSpans = yield* post("/otlp/v1/traces", tracesJson(), JSON_TYPE)
      expect(noSpans.json).toEqual({})
      const server = yield* TestServer
      expect(yield* countOf(server, "traces")).toBe(0)
      expect(yield* countOf(server, "logs")).toBe(0)
    })
  )

  it.effect("invalid spans are dropped and counted in partialSuccess, the rest stored", () =>
    Effect.gen(function* () {
      const body = tracesJson(span(GOOD_TRACE, "kept"), span("abcd", "dropped"))
      const json = yield* post("/otlp/v1/traces", body, JSON_TYPE)
      expect(json.status, json.text).toBe(200)
      expect(json.json).toMatchObject({ partialSuccess: { rejectedSpans: "1" } })
      const message = bodyOf(OtlpExportResponse, json).partialSuccess
      expect(message?.errorMessage).toContain("dropped")

      const request = create(ExportTraceServiceRequestSchema, {
        resourceSpans: [
          {
            scopeSpans: [
              {
                spans: [
                  { ...protoSpan("kept-binary"), traceId: Buffer.from(GOOD_TRACE, "hex") },
                  { ...protoSpan("dropped-binary"), traceId: new Uint8Array(3) }
                ]
              }
            ]
          }
        ]
      })
      const server = yield* TestServer
      const binary = yield* Effect.promise(() =>
        fetch(`${server.url}/otlp/v1/traces`, {
          method: "POST",
          headers: {
            ...PROTOBUF,
            "content-encoding": "gzip",
            authorization: `Bearer ${adminKeyOf(server)}`
          },
          body: gzipSync(toBinary(ExportTraceServiceRequestSchema, request))
        })
      )
      expect(binary.status).toBe(200)
      expect(binary.headers.get("content-type")).toBe("application/x-protobuf")
      const response = fromBinary(
        ExportTraceServiceResponseSchema,
        new Uint8Array(yield* Effect.promise(() => binary.arrayBuffer()))
      )
      expect(response.partialSuccess?.rejectedSpans).toBe(1n)
      expect(response.partialSuccess?.errorMessage).toContain("dropped-binary")
      const rows = yield* query(server, "SELECT SpanName FROM traces ORDER BY SpanName")
      expect(rows).toEqual([{ SpanName: "kept" }, { SpanName: "kept-binary" }])
    })
  )
})

const protoSpan = (name: string) => ({
  spanId: Buffer.from("00f067aa0ba902b7", "hex"),
  name,
  startTimeUnixNano: 1_750_000_000_123_456_789n,
  endTimeUnixNano: 1_750_000_000_223_456_789n
})
