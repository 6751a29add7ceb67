/**
 * Every kind of bad request gets the `{error, message, hint}` shape and the status of
 * the error contract, and no response leaks a stack trace, a server path or a secret.
 */
import { expect, layer } from "@effect/vitest"
import { request } from "node:http"
import { Effect } from "effect"
import type { Reply } from "../support/server.js"
import { TestServer, adminKeyOf, call, freshDataDir } from "../support/server.js"

const dataDir = freshDataDir()

const expectShape = (reply: Reply, status: number, error: string) => {
  expect(reply.status).toBe(status)
  expect(reply.headers.get("content-type")).toContain("application/json")
  // Exactly these three keys (a JSON body cannot hold an undefined one).
  expect(reply.json).toEqual({ error, message: expect.any(String), hint: expect.any(String) })
  expect(reply.text).not.toContain(dataDir)
  expect(reply.text).not.toMatch(/\bat .+\.(ts|js):\d+/)
}

layer(TestServer.layer(dataDir, { SLUICE_MAX_REQUEST_BYTES: "4096" }), {
  excludeTestServices: true,
  timeout: 120_000
})("error shapes", (it) => {
  it.effect("health and the OpenAPI document need no credential", () =>
    Effect.gen(function* () {
      const server = yield* TestServer
      expect((yield* call(server, "GET", "/health")).json).toEqual({ status: "ok" })
      const doc = yield* call(server, "GET", "/v1/openapi.json")
      expect(doc.status).toBe(200)
      expect(doc.json).toMatchObject({ openapi: expect.stringMatching(/^3\./) })
      expect(doc.json).toHaveProperty(["paths", "/v1/keys/{id_or_token}"])
      // Validation failures are sent as BadRequest, so the document promises nothing else.
      expect(doc.text).not.toContain("HttpApiDecodeError")
    })
  )

  it.effect("answers keep the connection 75 s and say so (BodyLimitedServer.ts says why)", () =>
    Effect.gen(function* () {
      const server = yield* TestServer
      const reply = yield* call(server, "GET", "/health")
      expect(reply.headers.get("keep-alive")).toBe("timeout=75")
    })
  )

  it.effect("unknown route → 404", () =>
    Effect.gen(function* () {
      const server = yield* TestServer
      expectShape(yield* call(server, "GET", "/v1/nope"), 404, "not_found")
      expectShape(yield* call(server, "PUT", "/health"), 404, "not_found")
    })
  )

  it.effect("malformed JSON → 400 naming the position", () =>
    Effect.gen(function* () {
      const server = yield* TestServer
      const reply = yield* call(server, "POST", "/v1/auth/login", {
        rawBody: '{"email": "a@b", "password": ',
        headers: { "content-type": "application/json" }
      })
      expectShape(reply, 400, "bad_request")
      expect(reply.json).toMatchObject({ message: expect.stringMatching(/JSON/) })
    })
  )

  it.effect("schema violation → 400 naming the field", () =>
    Effect.gen(function* () {
      const server = yield* TestServer
      const reply = yield* call(server, "POST", "/v1/auth/login", { body: { email: 42 } })
      expectShape(reply, 400, "bad_request")
      expect(reply.json).toMatchObject({ message: expect.stringContaining("email") })
    })
  )

  it.effect(
    "a value outside a field's choices names it once with every choice; a missing one is named",
    () =>
      Effect.gen(function* () {
        const server = yield* TestServer
        const token = adminKeyOf(server)
        const format = yield* call(server, "POST", "/v1/query", {
          token,
          body: { sql: "SELECT 1", format: "Pretty" }
        })
        expectShape(format, 400, "bad_request")
        expect((format.json as { message: string }).message).toBe(
          'The request is invalid: format: "Pretty" is not one of: JSON, JSONEachRow, JSONEachRowWithProgress, JSONCompact, CSV, CSVWithNames, TSV, TSVWithNames, TabSeparated.'
        )
        const permission = yield* call(server, "POST", "/v1/keys", {
          token,
          body: { name: "k", permission: "root" }
        })
        expect((permission.json as { message: string }).message).toBe(
          'The request is invalid: permission: "root" is not one of: admin, read_write, write_only, read_only.'
        )
        const missing = yield* call(server, "POST", "/v1/query", { token, body: {} })
        expect((missing.json as { message: string }).message).toBe(
          "The request is invalid: sql is missing."
        )
        // A query parameter of the wrong kind: its rule, not also the absent branch's.
        const limit = yield* call(server, "GET", "/v1/logs?limit=-1", { token })
        expectShape(limit, 400, "bad_request")
        expect((limit.json as { message: string }).message).toBe(
          "The request is invalid: limit: Expected a non-negative number, actual -1."
        )
        const since = yield* call(server, "GET", "/v1/logs?start_time=yesterday", { token })
        expect((since.json as { message: string }).message).toBe(
          'The request is invalid: start_time: "yesterday" is not an ISO 8601 date and time (e.g. 2026-01-31T12:00:00Z).'
        )
      })
  )

  it.effect("wrong content type → 415", () =>
    Effect.gen(function* () {
      const server = yield* TestServer
      const reply = yield* call(server, "POST", "/v1/auth/login", {
        rawBody: "email=a&password=b",
        headers: { "content-type": "text/plain" }
      })
      expectShape(reply, 415, "unsupported_media_type")
    })
  )

  it.effect("oversized body → 413, declared or streamed", () =>
    Effect.gen(function* () {
      const server = yield* TestServer
      const big = JSON.stringify({ email: "a@b", password: "x".repeat(10_000) })
      expectShape(
        yield* call(server, "POST", "/v1/auth/login", {
          rawBody: big,
          headers: { "content-type": "application/json" }
        }),
        413,
        "payload_too_large"
      )
      // Chunked: no content-length, so the limit applies while reading.
      // Chunked, no content-length: the limit applies while reading, and the 413 arrives
      // while the client is still sending.
      const streamed = yield* Effect.async<number>((resume) => {
        const req = request(`${server.url}/v1/auth/login`, {
          method: "POST",
          headers: { "content-type": "application/json", "transfer-encoding": "chunked" }
        })
        req.on("response", (res) => resume(Effect.succeed(res.statusCode ?? 0)))
        req.on("error", () => resume(Effect.succeed(-1)))
        const chunk = "x".repeat(1000)
        const pump = (left: number) => {
          if (left === 0) return req.end()
          if (req.destroyed) return
          req.write(chunk, () => setTimeout(() => pump(left - 1), 1))
        }
        pump(50)
      })
      expect(streamed).toBe(413)
    })
  )

  it.effect("a missing or invalid credential is a 401", () =>
    Effect.gen(function* () {
      const server = yield* TestServer
      expectShape(yield* call(server, "GET", "/v1/keys"), 401, "unauthorized")
      expectShape(
        yield* call(server, "GET", "/v1/keys", { headers: { authorization: "Basic abc" } }),
        401,
        "unauthorized"
      )
    })
  )
})
