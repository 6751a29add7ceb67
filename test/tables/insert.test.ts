/**
 * Body inserts over HTTP: every accepted shape and encoding, large bodies cut into
 * chunks, and each kind of bad input with the error a user sees. A rejected insert
 * leaves the table as it was.
 */
import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { gzipSync } from "node:zlib"
import { TestServer, adminKeyOf, call, freshDataDir } from "../support/server.js"
import type { RunningServer } from "../support/server.js"
import { insert, sql } from "./helpers.js"

const LIMIT = 8 * 1024 * 1024
const json = { "content-type": "application/json" }
const ndjson = { "content-type": "application/x-ndjson" }
// `printf '[{"z":1},{"z":2},{"z":3}]' | zstd -c`: node 20 has no zstd compressor.
const ZSTD_FRAME = "28b52ffd0458ad0000685b7b227a223a317d2c32337d5d020020c5da72048e995c46"

const count = (table: string) =>
  Effect.gen(function* () {
    const server = yield* TestServer
    const rows = yield* sql(server, `SELECT count() AS c FROM ${table}`)
    return Number(rows[0]?.c)
  })

const records = (n: number, from = 0) =>
  Array.from({ length: n }, (_, i) => ({
    id: from + i,
    message: `record number ${from + i} with "quotes", {braces} and [brackets]\n`,
    nested: { level: { deep: i % 7 } }
  }))

const env = { SLUICE_MAX_INSERT_BYTES: String(LIMIT) }

layer(TestServer.layer(freshDataDir(), env), { excludeTestServices: true, timeout: 120_000 })(
  "body insert",
  (it) => {
    describe("accepted bodies", () => {
      it.effect("one object, an array, and NDJSON", () =>
        Effect.gen(function* () {
          const server = yield* TestServer
          const one = yield* insert(server, "shapes", JSON.stringify({ a: 1 }))
          expect(one.json).toEqual({ inserted: 1 })
          const many = yield* insert(server, "shapes", JSON.stringify(records(3)))
          expect(many.json).toEqual({ inserted: 3 })
          const lines =
            records(4)
              .map((r) => JSON.stringify(r))
              .join("\n") + "\n"
          const nd = yield* insert(server, "shapes", lines, ndjson)
          expect(nd.json).toEqual({ inserted: 4 })
          expect(yield* count("shapes")).toBe(8)
        })
      )

      it.effect("gzip and zstd bodies", () =>
        Effect.gen(function* () {
          const server = yield* TestServer
          const body = gzipSync(JSON.stringify(records(50)))
          const gz = yield* insert(server, "packed", body, { ...json, "content-encoding": "gzip" })
          expect(gz.json).toEqual({ inserted: 50 })
          const zs = yield* insert(server, "packed", Buffer.from(ZSTD_FRAME, "hex"), {
            ...json,
            "content-encoding": "zstd"
          })
          expect(zs.json).toEqual({ inserted: 3 })
          expect(yield* count("packed")).toBe(53)
          const rows = yield* sql(server, "SELECT sum(z) AS s FROM packed")
          expect(rows[0]?.s).toBe("6")
        })
      )

      /** `table` holds ids 0 to n - 1, each once: a record lost, repeated or changed shows. */
      const expectEveryId = (server: RunningServer, table: string, n: number) =>
        Effect.map(
          sql(server, `SELECT count() AS c, uniqExact(id) AS u, sum(id) AS s FROM ${table}`),
          ([stats]) => expect(stats).toEqual({ c: `${n}`, u: `${n}`, s: `${(n * (n - 1)) / 2}` })
        )

      it.effect("a body of several chunks arrives whole, record for record", () =>
        Effect.gen(function* () {
          const server = yield* TestServer
          const all = records(50_000)
          const body = JSON.stringify(all)
          expect(body.length).toBeGreaterThan(4 * 1024 * 1024)
          const reply = yield* insert(server, "large", body)
          expect(reply.json).toEqual({ inserted: 50_000 })
          yield* expectEveryId(server, "large", 50_000)
        })
      )

      it.effect("a body of one chunk in many pieces, into a table written before", () =>
        Effect.gen(function* () {
          const server = yield* TestServer
          yield* insert(server, "pieces", JSON.stringify(records(1)))
          // Well over the 256 KiB up to which a chunk's pieces are joined, under one chunk.
          const body = JSON.stringify(records(5_000, 1))
          expect(body.length).toBeGreaterThan(512 * 1024)
          expect(body.length).toBeLessThan(4 * 1024 * 1024)
          const reply = yield* insert(server, "pieces", body)
          expect(reply.json).toEqual({ inserted: 5_000 })
          yield* expectEveryId(server, "pieces", 5_001)
          const bad = `${body.slice(0, -1)},\n{"id":"x","nested":{"level":{"deep":tru}}}]`
          const refused = yield* insert(server, "pieces", bad)
          expect(refused.status).toBe(400)
          expect(refused.json).toMatchObject({
            message: expect.stringMatching(/record 5000 \(line 2\)/)
          })
          expect(yield* count("pieces")).toBe(5_001)
        })
      )
    })

    describe("bad input", () => {
      it.effect("malformed JSON names the line and offset", () =>
        Effect.gen(function* () {
          const server = yield* TestServer
          const broken = yield* insert(server, "bad", '[{"a":1},\n{"a":2},\n{"a": ]')
          expect(broken.status).toBe(400)
          expect(broken.json).toMatchObject({
            error: "bad_request",
            message: expect.stringMatching(/line 3/)
          })
          const unclosed = yield* insert(server, "bad", '{"a": "never closed')
          expect(unclosed.status).toBe(400)
          expect(unclosed.json).toMatchObject({
            message: expect.stringMatching(/line 1, byte offset/)
          })
          const badValue = yield* insert(server, "bad", '{"a":1}\n{"a":2}\n{"a":tru}\n', ndjson)
          expect(badValue.status).toBe(400)
          expect(badValue.json).toMatchObject({
            message: expect.stringMatching(/record 2 \(line 3\)/)
          })
          // The engine's text ends with a colon before its stack; the message does not.
          expect((badValue.json as { message: string }).message).toMatch(/[^:]$/)
        })
      )

      it.effect("a field given twice in a record is named, without the engine's advice", () =>
        Effect.gen(function* () {
          const server = yield* TestServer
          const body = '{"a":1}\n{"b":{"c":1,"c":2}}\n'
          const twice = yield* insert(server, "twice", body, ndjson)
          expect(twice.status).toBe(400)
          expect(twice.json).toEqual({
            error: "bad_request",
            message:
              "Record 1 (line 2) holds the field 'b.c' twice; each field may appear once in a record.",
            hint: "Send the field once (nested objects count by their dotted path). Nothing was inserted."
          })
          const listed = yield* call(server, "GET", "/v1/tables", { token: adminKeyOf(server) })
          expect(JSON.stringify(listed.json)).not.toContain('"twice"')
        })
      )

      it.effect("a non-object element is refused by its index", () =>
        Effect.gen(function* () {
          const server = yield* TestServer
          const reply = yield* insert(server, "bad", '[{"a":1}, {"a":2}, 3]')
          expect(reply.status).toBe(400)
          expect(reply.json).toMatchObject({
            message: expect.stringMatching(/Record 2 is not a JSON object/)
          })
          const array = yield* insert(server, "bad", "[1]\n", ndjson)
          expect(array.status).toBe(400)
        })
      )

      it.effect("an empty body, an empty array and whitespace are refused", () =>
        Effect.gen(function* () {
          const server = yield* TestServer
          for (const body of ["", "   \n", "[]", "[ ]"]) {
            const reply = yield* insert(server, "bad", body)
            expect(reply.status, body).toBe(400)
            expect(reply.json).toMatchObject({ error: "bad_request", hint: expect.any(String) })
          }
        })
      )

      it.effect("a wrong content type or encoding is a 415", () =>
        Effect.gen(function* () {
          const server = yield* TestServer
          const form = yield* insert(server, "bad", "a=1", {
            "content-type": "application/x-www-form-urlencoded"
          })
          expect(form.status).toBe(415)
          expect(form.json).toMatchObject({ hint: expect.stringContaining("application/x-ndjson") })
          const br = yield* insert(server, "bad", "{}", { ...json, "content-encoding": "br" })
          expect(br.status).toBe(415)
        })
      )

      it.effect("a body over SLUICE_MAX_INSERT_BYTES is a 413, also once decompressed", () =>
        Effect.gen(function* () {
          const server = yield* TestServer
          const big = yield* insert(server, "bad", "x".repeat(LIMIT + 1))
          expect(big.status).toBe(413)
          expect(big.json).toMatchObject({
            hint: expect.stringContaining("SLUICE_MAX_INSERT_BYTES")
          })
          const bomb = gzipSync(`[${'{"a":1},'.repeat(LIMIT / 8)}{"a":1}]`)
          expect(bomb.length).toBeLessThan(LIMIT)
          const inflated = yield* insert(server, "bad", bomb, {
            ...json,
            "content-encoding": "gzip"
          })
          expect(inflated.status).toBe(413)
          const corrupt = yield* insert(server, "bad", Buffer.from("not gzip"), {
            ...json,
            "content-encoding": "gzip"
          })
          expect(corrupt.status).toBe(400)
        })
      )

      it.effect("an invalid table name is a 400 that states the rule", () =>
        Effect.gen(function* () {
          const server = yield* TestServer
          const reply = yield* insert(server, "9lives", "{}")
          expect(reply.status).toBe(400)
          expect(reply.text).toContain("names start with a letter")
        })
      )

      it.effect("an unknown transform is a 400 that lists the known ones", () =>
        Effect.gen(function* () {
          const server = yield* TestServer
          const unknown = yield* insert(server, "bad", "{}", json, "?transform=bogus")
          expect(unknown.status).toBe(400)
          // The six format names clients send and the three aliases, every one of them.
          for (const name of [
            "otlp-traces",
            "otlp-logs",
            "otlp-metrics",
            "cloud-logs",
            "cloud-audit",
            "delivery-stream",
            "cloudwatch-logs",
            "cloudtrail",
            "firehose"
          ]) {
            expect(unknown.text).toContain(name)
          }
        })
      )

      it.effect("a rejected insert inserts nothing, even after whole chunks went in", () =>
        Effect.gen(function* () {
          const server = yield* TestServer
          const good = yield* insert(server, "atomic", JSON.stringify(records(10)))
          expect(good.json).toEqual({ inserted: 10 })
          const body = JSON.stringify(records(40_000)).slice(0, -1) + ', "oops"]'
          const reply = yield* insert(server, "atomic", body)
          expect(reply.status).toBe(400)
          expect(reply.json).toMatchObject({ message: expect.stringMatching(/Record 40000/) })
          expect(yield* count("atomic")).toBe(10)
          const never = yield* call(server, "GET", "/v1/tables/bad", { token: adminKeyOf(server) })
          expect(never.status).toBe(404)
        })
      )

      // A one-chunk body into a table this server has written to goes in as one statement.
      it.effect("into a table written before, a refused body leaves no row and no column", () =>
        Effect.gen(function* () {
          const server = yield* TestServer
          const columns = Effect.map(
            call(server, "GET", "/v1/tables/single", { token: adminKeyOf(server) }),
            (reply) =>
              (reply.json as { table: { columns: Array<{ name: string }> } }).table.columns.map(
                (c) => c.name
              )
          )
          expect((yield* insert(server, "single", JSON.stringify(records(2)))).json).toEqual({
            inserted: 2
          })
          const withExtra = records(500, 2).map((r) => ({ ...r, extra: { flag: true } }))
          const badLast = JSON.stringify(withExtra).slice(0, -1) + ', {"id": }]'
          const malformed = yield* insert(server, "single", badLast)
          expect(malformed.status).toBe(400)
          expect(malformed.json).toMatchObject({ message: expect.stringMatching(/record 500 /) })
          const longKey = [
            { id: 9, [`k${"x".repeat(2_000)}`]: 1 },
            { id: 10, fine: 2 }
          ]
          const overlong = yield* insert(server, "single", JSON.stringify(longKey))
          expect(overlong.status).toBe(400)
          expect(overlong.json).toMatchObject({
            message: expect.stringContaining("Record 0 (line 1) has a field name")
          })
          // Whole records and then something else: the body is refused once it has ended.
          const trailing = yield* insert(server, "single", JSON.stringify(records(3, 2)) + " x")
          expect(trailing.status).toBe(400)
          expect(yield* count("single")).toBe(2)
          expect(yield* columns).toEqual(["id", "message", "nested.level.deep"])
          // The same records without the bad one: every row, and the new field a column.
          const good = yield* insert(server, "single", JSON.stringify(withExtra))
          expect(good.json).toEqual({ inserted: 500 })
          expect(yield* count("single")).toBe(502)
          expect(yield* columns).toEqual(["extra.flag", "id", "message", "nested.level.deep"])
          const flagged = yield* sql(server, "SELECT count() AS c FROM single WHERE extra.flag")
          expect(Number(flagged[0]?.c)).toBe(500)
        })
      )
    })
  }
)
