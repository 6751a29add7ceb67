/**
 * Delivery-stream inserts over HTTP, replayed in the exact shape a delivery stream's
 * HTTP endpoint destination sends (headers and body), against the real server.
 */
import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import type { Permission } from "../../domain/Identity.js"
import { adminClientOf } from "../support/client.js"
import { TestServer, adminKeyOf, call, freshDataDir } from "../support/server.js"
import { b64, batch, controlMessage, gzB64, subscription } from "./fixtures.js"
import { countOf, firehose, query } from "./http.js"

const logs = (from: number, n: number) =>
  Array.from({ length: n }, (_, i) => ({
    id: `3719${from + i}`,
    timestamp: 1763771766000 + (from + i) * 1000,
    message: i % 2 === 0 ? `GET /checkout ${from + i}` : `{"level":"warn","n":${from + i}}`
  }))

/** What a log subscription forwards through a stream: each record one gzip payload. */
const forwarded = (requestId: string) =>
  batch(requestId, [
    gzB64(JSON.stringify(controlMessage)),
    gzB64(JSON.stringify(subscription(logs(0, 3)))),
    gzB64(JSON.stringify(subscription(logs(3, 2))))
  ])

const createKey = (permission: Permission) =>
  Effect.gen(function* () {
    const admin = yield* adminClientOf(yield* TestServer)
    const created = yield* admin.keys.create({
      urlParams: {},
      payload: { name: `stream ${permission}`, permission }
    })
    return created.key.token
  })

const expectStreamError = (json: unknown, requestId: string, status: number, text: string) => {
  expect(json, String(status)).toMatchObject({
    requestId,
    timestamp: expect.any(Number),
    errorMessage: expect.stringContaining(text)
  })
}

layer(TestServer.layer(freshDataDir()), { excludeTestServices: true, timeout: 120_000 })(
  "delivery-stream over HTTP",
  (it) => {
    describe("accepted batches", () => {
      it.effect(
        "gzip log-subscription records: one row per log event with envelope and attributes",
        () =>
          Effect.gen(function* () {
            const server = yield* TestServer
            const key = yield* createKey("write_only")
            const reply = yield* firehose(server, "cw_logs", forwarded("5c6b7a1e-0001"), {
              requestId: "5c6b7a1e-0001",
              accessKey: key,
              attributes: { env: "prod" },
              gzip: true
            })
            expect(reply.status, reply.text).toBe(200)
            expect(reply.json).toEqual({
              requestId: "5c6b7a1e-0001",
              timestamp: expect.any(Number)
            })
            expect(reply.headers.get("content-type")).toContain("application/json")
            const rows = yield* query(
              server,
              "SELECT id, logGroup, owner, messageType, env, message, message_json.level AS level FROM cw_logs ORDER BY id"
            )
            expect(rows).toHaveLength(5)
            expect(rows[0]).toEqual({
              id: "37190",
              logGroup: "/aws/lambda/checkout",
              owner: "123456789012",
              messageType: "DATA_MESSAGE",
              env: "prod",
              message: "GET /checkout 0",
              level: null
            })
            expect(rows[1]).toMatchObject({ id: "37191", level: "warn" })
          })
      )

      it.effect("a retried request (same request id) inserts once", () =>
        Effect.gen(function* () {
          const server = yield* TestServer
          const key = adminKeyOf(server)
          const first = batch("retry-1", [b64('{"n":1}'), b64('[{"n":2},{"n":3}]')])
          const options = { requestId: "retry-1", accessKey: key }
          expect((yield* firehose(server, "retried", first, options)).status).toBe(200)
          // A later attempt of the same batch carries a new body timestamp.
          const again = yield* firehose(
            server,
            "retried",
            { ...first, timestamp: first.timestamp + 5000 },
            options
          )
          expect(again.status, again.text).toBe(200)
          expect(again.json).toMatchObject({ requestId: "retry-1" })
          expect(yield* countOf(server, "retried")).toBe(3)
          const other = batch("retry-2", [b64('{"n":4}')])
          yield* firehose(server, "retried", other, { requestId: "retry-2", accessKey: key })
          expect(yield* countOf(server, "retried")).toBe(4)
        })
      )

      it.effect("TSV records with a columns attribute, text without, the firehose alias", () =>
        Effect.gen(function* () {
          const server = yield* TestServer
          const body = batch("tsv-1", [b64("GET\t/a\t200\nPOST\t/b\t502\n")])
          const reply = yield* firehose(server, "tsv", body, {
            requestId: "tsv-1",
            accessKey: adminKeyOf(server),
            attributes: { columns: "method,path,status", source: "edge" },
            transform: "firehose"
          })
          expect(reply.status, reply.text).toBe(200)
          expect(
            yield* query(server, "SELECT method, path, status, source FROM tsv ORDER BY path")
          ).toEqual([
            { method: "GET", path: "/a", status: "200", source: "edge" },
            { method: "POST", path: "/b", status: "502", source: "edge" }
          ])
          const text = batch("tsv-2", [b64("just some text")])
          yield* firehose(server, "texts", text, {
            requestId: "tsv-2",
            accessKey: adminKeyOf(server)
          })
          expect(yield* query(server, "SELECT data FROM texts")).toEqual([
            { data: "just some text" }
          ])
        })
      )
      it.effect("?columns=a,b names the columns of TSV and CSV records", () =>
        Effect.gen(function* () {
          const server = yield* TestServer
          const body = batch("cols-1", [
            b64("GET\t/a\t200\nPOST\t/b\t502\n"),
            b64('PUT,"/c, d",201\r\nDELETE,"say ""hi""",204\n')
          ])
          const reply = yield* firehose(server, "named", body, {
            requestId: "cols-1",
            accessKey: adminKeyOf(server),
            attributes: { source: "edge" },
            columns: "method,path,status"
          })
          expect(reply.status, reply.text).toBe(200)
          expect(reply.json).toMatchObject({ requestId: "cols-1" })
          expect(
            yield* query(server, "SELECT method, path, status, source FROM named ORDER BY status")
          ).toEqual([
            { method: "GET", path: "/a", status: "200", source: "edge" },
            { method: "PUT", path: "/c, d", status: "201", source: "edge" },
            { method: "DELETE", path: 'say "hi"', status: "204", source: "edge" },
            { method: "POST", path: "/b", status: "502", source: "edge" }
          ])
          // Not one `data` column: the parameter named them.
          const described = yield* call(server, "GET", "/v1/tables/named", {
            token: adminKeyOf(server)
          })
          expect(described.text).not.toContain('"data"')
        })
      )
    })

    describe("refused batches", () => {
      it.effect(
        "columns: a name given twice, a line of another width, without delivery-stream",
        () =>
          Effect.gen(function* () {
            const server = yield* TestServer
            const key = adminKeyOf(server)
            const tsv = batch("cols-2", [b64("GET\t/a\t200\n")])
            const twice = yield* firehose(server, "badcols", tsv, {
              requestId: "cols-2",
              accessKey: key,
              columns: "method,path,method"
            })
            expect(twice.status).toBe(400)
            expectStreamError(twice.json, "cols-2", 400, "'method' is named twice")
            const narrow = yield* firehose(server, "badcols", tsv, {
              requestId: "cols-3",
              accessKey: key,
              columns: "method,path"
            })
            expect(narrow.status).toBe(400)
            expectStreamError(narrow.json, "cols-3", 400, "3 TSV fields but 2 columns")
            const unclosed = yield* firehose(server, "badcols", batch("cols-4", [b64('a,"b\n')]), {
              requestId: "cols-4",
              accessKey: key,
              columns: "x,y"
            })
            expect(unclosed.status).toBe(400)
            expectStreamError(unclosed.json, "cols-4", 400, "never closes")
            expect(yield* countOf(server, "badcols")).toBe(0)
            for (const query of ["?columns=a,b", "?transform=cloud-logs&columns=a,b"]) {
              const reply = yield* call(server, "POST", `/v1/tables/badcols${query}`, {
                token: key,
                body: { a: 1 }
              })
              expect(reply.status, query).toBe(400)
              expect(reply.json).toMatchObject({
                error: "bad_request",
                message: expect.stringContaining("delivery-stream")
              })
            }
            expect(yield* countOf(server, "badcols")).toBe(0)
          })
      )

      it.effect("rule 5: 400 naming the record index, nothing inserted", () =>
        Effect.gen(function* () {
          const server = yield* TestServer
          const body = batch("bad-1", [
            b64('{"ok":1}'),
            b64('{"ok":2}'),
            b64(new Uint8Array([0, 159, 146, 150]))
          ])
          const reply = yield* firehose(server, "refused", body, {
            requestId: "bad-1",
            accessKey: adminKeyOf(server)
          })
          expect(reply.status).toBe(400)
          expectStreamError(reply.json, "bad-1", 400, "records[2]")
          expect(yield* countOf(server, "refused")).toBe(0)
        })
      )

      it.effect("missing or wrong access key: 401 in the delivery-stream shape", () =>
        Effect.gen(function* () {
          const server = yield* TestServer
          const body = batch("auth-1", [b64('{"a":1}')])
          const missing = yield* firehose(server, "guarded", body, {
            requestId: "auth-1",
            accessKey: null
          })
          expect(missing.status).toBe(401)
          expectStreamError(missing.json, "auth-1", 401, "credential")
          const wrong = yield* firehose(server, "guarded", body, {
            requestId: "auth-1",
            accessKey: "rt_" + "x".repeat(43)
          })
          expect(wrong.status).toBe(401)
          expectStreamError(wrong.json, "auth-1", 401, "access key")
          expect(wrong.json).toMatchObject({ error: "unauthorized" })
          const readOnly = yield* firehose(server, "guarded", body, {
            requestId: "auth-1",
            accessKey: yield* createKey("read_only")
          })
          expect(readOnly.status).toBe(403)
          expectStreamError(readOnly.json, "auth-1", 403, "")
          expect(yield* countOf(server, "guarded")).toBe(0)
        })
      )

      it.effect("the access key as a secrets-store JSON value; a bearer wins over the header", () =>
        Effect.gen(function* () {
          const server = yield* TestServer
          const body = batch("key-1", [b64('{"a":1}')])
          const wrapped = yield* firehose(server, "keyed", body, {
            requestId: "key-1",
            accessKey: JSON.stringify({ api_key: adminKeyOf(server) })
          })
          expect(wrapped.status, wrapped.text).toBe(200)
          const bearer = yield* call(server, "POST", "/v1/tables/keyed?transform=delivery-stream", {
            token: adminKeyOf(server),
            body: batch("key-2", [b64('{"a":2}')]),
            headers: { "x-amz-firehose-access-key": "rt_wrong" }
          })
          expect(bearer.status, bearer.text).toBe(200)
          expect(yield* countOf(server, "keyed")).toBe(2)
        })
      )

      it.effect("a request id reused for other records is a 409 in the same shape", () =>
        Effect.gen(function* () {
          const server = yield* TestServer
          const options = { requestId: "reuse-1", accessKey: adminKeyOf(server) }
          yield* firehose(server, "reused", batch("reuse-1", [b64('{"a":1}')]), options)
          const other = yield* firehose(
            server,
            "reused",
            batch("reuse-1", [b64('{"a":2}')]),
            options
          )
          expect(other.status).toBe(409)
          expectStreamError(other.json, "reuse-1", 409, "already used")
          expect(yield* countOf(server, "reused")).toBe(1)
        })
      )

      it.effect("errors made outside the handler (an invalid table name) take the shape too", () =>
        Effect.gen(function* () {
          const server = yield* TestServer
          const reply = yield* firehose(server, "1bad", batch("name-1", [b64('{"a":1}')]), {
            requestId: "name-1",
            accessKey: adminKeyOf(server)
          })
          expect(reply.status).toBe(400)
          expectStreamError(reply.json, "name-1", 400, "")
          expect(reply.json).toMatchObject({ error: "bad_request" })
        })
      )

      it.effect("a body that is not a delivery-stream request is a 400 in the same shape", () =>
        Effect.gen(function* () {
          const server = yield* TestServer
          const reply = yield* firehose(
            server,
            "shapeless",
            { hello: "world" },
            {
              requestId: "shape-1",
              accessKey: adminKeyOf(server)
            }
          )
          expect(reply.status).toBe(400)
          expectStreamError(reply.json, "shape-1", 400, "not a delivery-stream request")
        })
      )
    })
  }
)
