/**
 * The hostile inputs the seeded run found answered with a 500, a hang or a lost log,
 * each as a named case: multipart and form bodies to JSON endpoints, 20,000-deep JSON,
 * a 200 KB key, a thousand new long fields in one insert, NUL bytes in a logged request,
 * one 64 MiB collector event (it took the engine worker down).
 * Run inside the seeded suite's layer (its server).
 */
import { expect } from "@effect/vitest"
import { randomBytes } from "node:crypto"
import * as http from "node:http"
import { gzipSync } from "node:zlib"
import { Effect, Schema } from "effect"
import { LogsPage } from "../../domain/api/LogsApi.js"
import { TableName } from "../../domain/Ids.js"
import { adminClientOf } from "../support/client.js"
import { eventually } from "../support/eventually.js"
import type { Reply } from "../support/server.js"
import { TestServer, adminKeyOf, bodyOf, call } from "../support/server.js"
import type { Vitest } from "@effect/vitest"

const ErrorBody = Schema.Struct({
  error: Schema.String,
  message: Schema.String,
  hint: Schema.String
})

const refused = (reply: Reply, status: number, error: string) => {
  expect(reply.status, reply.text).toBe(status)
  expect(bodyOf(ErrorBody, reply).error).toBe(error)
}

const boundary = "hostile"
const multipartBody = `--${boundary}\r\nContent-Disposition: form-data; name="name"\r\n\r\nformdb\r\n--${boundary}--\r\n`

/** A GET carrying `body` (fetch refuses to send one): its status and text. */
const getWithBody = (url: string, token: string, contentType: string, body: string) =>
  Effect.async<{ readonly status: number; readonly text: string }>((resume) => {
    const request = http.request(url, {
      method: "GET",
      headers: {
        authorization: `Bearer ${token}`,
        "content-type": contentType,
        // Node's client sends a GET's body unframed otherwise.
        "content-length": String(Buffer.byteLength(body))
      }
    })
    request.on("response", (response) => {
      const pieces: Array<Buffer> = []
      response.on("data", (piece: Buffer) => pieces.push(piece))
      response.on("end", () =>
        resume(
          Effect.succeed({
            status: response.statusCode ?? 0,
            text: Buffer.concat(pieces).toString("utf8")
          })
        )
      )
    })
    request.on("error", (error) => resume(Effect.die(error)))
    request.end(body)
  })

/** Whether `table` exists in the default database (describe is a 404 otherwise). */
const exists = (table: string) =>
  Effect.flatMap(TestServer, (server) =>
    Effect.map(
      call(server, "GET", `/v1/tables/${table}`, { token: adminKeyOf(server) }),
      (reply) => reply.status === 200
    )
  )

export const namedCases = (it: Vitest.MethodsNonLive<TestServer, true>, adminPassword: string) => {
  it.effect("multipart and form bodies to JSON endpoints: 415, unread, nothing created", () =>
    Effect.gen(function* () {
      const server = yield* TestServer
      const token = adminKeyOf(server)
      const jsonEndpoints = [
        "/v1/query",
        "/v1/query/cancel",
        "/v1/databases",
        "/v1/keys",
        "/v1/auth/login",
        "/v1/clusters?organization=default",
        "/v1/spl/search",
        "/v1/apps/spl/searches"
      ]
      for (const path of jsonEndpoints) {
        for (const [contentType, body] of [
          [`multipart/form-data; boundary=${boundary}`, multipartBody],
          ["multipart/form-data", multipartBody],
          [`multipart/form-data; boundary=${boundary}`, ""],
          [`multipart/form-data; boundary=${boundary}`, `--${boundary}\r\nbroken`],
          ["application/x-www-form-urlencoded", "name=formdb&permission=read_only&sql=SELECT+1"]
        ] as const) {
          const reply = yield* call(server, "POST", path, {
            token,
            rawBody: body,
            headers: { "content-type": contentType }
          })
          refused(reply, 415, "unsupported_media_type")
        }
      }
      const admin = yield* adminClientOf(server)
      const { databases } = yield* admin.databases.list({ urlParams: {} })
      expect(databases.map((d) => d.name)).not.toContain("formdb")
    })
  )

  it.effect("a body sent with a GET is not read: the answer is the one without it", () =>
    Effect.gen(function* () {
      const server = yield* TestServer
      const token = adminKeyOf(server)
      const plain = yield* call(server, "GET", "/v1/databases", { token })
      expect(plain.status).toBe(200)
      for (const [contentType, body] of [
        [`multipart/form-data; boundary=${boundary}`, multipartBody],
        ["application/x-www-form-urlencoded", "name=formdb&permission=read_only"],
        ["application/json", "[".repeat(20_000) + "]".repeat(20_000)]
      ] as const) {
        const reply = yield* getWithBody(`${server.url}/v1/databases`, token, contentType, body)
        expect(reply.status, `${contentType}: ${reply.text}`).toBe(200)
        expect(reply.text).toBe(plain.text)
      }
    })
  )

  it.effect("20,000-deep JSON is a 400 wherever it is sent, and inserts nothing", () =>
    Effect.gen(function* () {
      const server = yield* TestServer
      const token = adminKeyOf(server)
      const deep = "[".repeat(20_000) + "]".repeat(20_000)
      const json = { "content-type": "application/json" }
      for (const path of [
        "/v1/tables/deep_logs?transform=cloud-logs",
        "/v1/tables/deep_audit?transform=cloud-audit",
        "/v1/tables/deep_stream?transform=delivery-stream",
        "/v1/tables/deep_traces?transform=otlp-traces",
        "/v1/query",
        "/v1/databases"
      ]) {
        const reply = yield* call(server, "POST", path, { token, rawBody: deep, headers: json })
        expect(reply.status, `${path}: ${reply.text}`).toBe(400)
        expect(reply.text, path).toContain("nested deeper than 128 levels")
      }
      const wrapped = `[{"ok":1},{"a":${deep}}]`
      const records = yield* call(server, "POST", "/v1/tables/deep_plain", {
        token,
        rawBody: wrapped,
        headers: json
      })
      refused(records, 400, "bad_request")
      expect(records.text).toContain("Record 1 is JSON nested deeper than 128 levels")
      for (const table of ["deep_logs", "deep_audit", "deep_stream", "deep_traces", "deep_plain"]) {
        expect(yield* exists(table), table).toBe(false)
      }
      // 128 levels are still records like any other.
      const limit = `{"a":${"[".repeat(127)}1${"]".repeat(127)}}`
      const kept = yield* call(server, "POST", "/v1/tables/deep_ok", {
        token,
        rawBody: limit,
        headers: json
      })
      expect(kept.json, kept.text).toEqual({ inserted: 1 })
    })
  )

  it.effect("a 200 KB key, or more new fields than a table can hold: 400, nothing inserted", () =>
    Effect.gen(function* () {
      const server = yield* TestServer
      const token = adminKeyOf(server)
      const huge = yield* call(server, "POST", "/v1/tables/wide", {
        token,
        body: { [`k${"x".repeat(200_000)}`]: 1 }
      })
      refused(huge, 400, "bad_request")
      expect(huge.text).toContain("at most 1024 are accepted")
      expect(yield* exists("wide")).toBe(false)
      const first = yield* call(server, "POST", "/v1/tables/wide", { token, body: { id: 1 } })
      expect(first.json).toEqual({ inserted: 1 })
      // 1,000 columns of 110-character names: a definition far past the engine's 256 KiB.
      const record = Object.fromEntries(
        Array.from({ length: 1000 }, (_, i) => [
          `f${String(i).padStart(4, "0")}_${"y".repeat(105)}`,
          i
        ])
      )
      const wide = yield* call(server, "POST", "/v1/tables/wide", { token, body: [record, record] })
      refused(wide, 400, "bad_request")
      expect(wide.text).toContain("256 KiB")
      const admin = yield* adminClientOf(server)
      const described = yield* admin.tables.describe({
        path: { table: TableName.make("wide") },
        urlParams: {}
      })
      expect(described.table.total_rows).toBe(1)
      expect(described.table.columns.map((c) => c.name)).toEqual(["id"])
    })
  )

  it.effect("requests carrying NUL bytes or deep JSON are still logged", () =>
    Effect.gen(function* () {
      const server = yield* TestServer
      const token = adminKeyOf(server)
      for (const [agent, body] of [
        ["nul-body", '{"sql":"SELECT 1\u0000"}'],
        ["deep-body", "[".repeat(4000) + "]".repeat(4000)]
      ] as const) {
        const reply = yield* call(server, "POST", "/v1/query?x=%00", {
          token,
          rawBody: body,
          headers: { "content-type": "application/json", "user-agent": agent }
        })
        refused(reply, 400, "bad_request")
        const page = yield* eventually(
          `the log entry of ${agent}`,
          Effect.map(call(server, "GET", `/v1/logs?user_agent=${agent}`, { token }), (reply) => {
            const logs = bodyOf(LogsPage, reply).logs
            return logs.length > 0 ? logs : undefined
          })
        )
        expect(page[0]?.status_code).toBe(400)
      }
    })
  )

  it.effect("one 64 MiB event (under the collector's 100 MiB) is inserted whole", () =>
    Effect.gen(function* () {
      const server = yield* TestServer
      const token = adminKeyOf(server)
      const login = yield* call(server, "POST", "/v1/auth/login", {
        body: { email: "admin@localhost", password: adminPassword }
      })
      const session = bodyOf(Schema.Struct({ token: Schema.String }), login).token
      // Installed already when the seeded run went first; a 409 then.
      yield* call(server, "PUT", "/v1/apps/spl-app?organization=default&cluster=default", {
        token: session
      })
      // Text that compresses as logs do: a run of one byte would be a gzip bomb (refused).
      const block = randomBytes(48 * 1024).toString("base64")
      const line = Buffer.alloc(64 * 1024 * 1024, block)
      const reply = yield* call(server, "POST", "/services/collector/raw", {
        token,
        rawBody: gzipSync(line),
        headers: { "content-encoding": "gzip" }
      })
      expect(reply.json, reply.text).toEqual({ text: "Success", code: 0 })
      const lengths = yield* call(server, "POST", "/v1/query", {
        token,
        body: { sql: "SELECT max(length(_raw)) AS n FROM spl_events", format: "CSV" }
      })
      expect(lengths.text).toBe(`${64 * 1024 * 1024}\n`)
    })
  )
}
