/**
 * Schemaless storage over HTTP: tables appear on first insert, dotted paths are bare
 * columns, `SELECT *` expands them, types may change, null and {} vanish, date-times
 * and big integers keep their meaning; list, describe and delete.
 */
import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import type { Permission } from "../../domain/Identity.js"
import { TableName } from "../../domain/Ids.js"
import { adminClientOf } from "../support/client.js"
import { TestServer, adminKeyOf, call } from "../support/server.js"
import { insert, insertOk, sql } from "./helpers.js"

layer(TestServer.layer(), { excludeTestServices: true, timeout: 120_000 })(
  "schemaless tables",
  (it) => {
    it.effect("the spec's GROUP BY on a bare dotted path works after a first insert", () =>
      Effect.gen(function* () {
        const server = yield* TestServer
        yield* insertOk(server, "events", [
          { request: { client: { geo: { country: "DE" } } }, n: 1 },
          { request: { client: { geo: { country: "DE" } } }, n: 2 },
          { request: { client: { geo: { country: "FR" } } }, n: 3 }
        ])
        const rows = yield* sql(
          server,
          "SELECT request.client.geo.country, count() AS c FROM events GROUP BY 1 ORDER BY 1"
        )
        expect(rows).toEqual([
          { "request.client.geo.country": "DE", c: "2" },
          { "request.client.geo.country": "FR", c: "1" }
        ])
        const star = yield* sql(server, "SELECT * FROM events ORDER BY n")
        expect(star[0]).toEqual({ n: "1", "request.client.geo.country": "DE" })
        const overHttp = yield* call(server, "POST", "/v1/query", {
          token: adminKeyOf(server),
          body: {
            sql: "SELECT request.client.geo.country, count() FROM events GROUP BY 1 ORDER BY 1",
            format: "JSONEachRow"
          }
        })
        expect(overHttp.status, overHttp.text).toBe(200)
        expect(
          overHttp.text
            .trim()
            .split("\n")
            .map((l) => JSON.parse(l) as unknown)
        ).toEqual([
          { "request.client.geo.country": "DE", "count()": "2" },
          { "request.client.geo.country": "FR", "count()": "1" }
        ])
      })
    )

    it.effect("a field that changes type is still summed, compared and grouped", () =>
      Effect.gen(function* () {
        const server = yield* TestServer
        yield* insertOk(server, "mixed", [{ v: 1 }, { v: 2.5 }])
        yield* insertOk(server, "mixed", [{ v: "three" }, { v: 4 }])
        const [agg] = yield* sql(
          server,
          "SELECT sum(v) AS s, avg(v) AS a, min(v) AS lo, max(v) AS hi, countIf(v > 2) AS big FROM mixed"
        )
        expect(agg).toEqual({ s: 7.5, a: 2.5, lo: 1, hi: 4, big: "2" })
        const groups = yield* sql(server, "SELECT v, count() AS c FROM mixed GROUP BY v ORDER BY v")
        expect(groups.length).toBe(4)
        const raw = yield* sql(server, "SELECT toString(__raw_data.v) AS v FROM mixed ORDER BY v")
        expect(raw.map((r) => r.v)).toContain("three")
        const described = yield* call(server, "GET", "/v1/tables/mixed", {
          token: adminKeyOf(server)
        })
        expect(described.json).toMatchObject({
          table: { columns: [{ name: "v", type: "Nullable(Float64)" }] }
        })
      })
    )

    it.effect("a field of text and date-times, or scalar and array, stays queryable as text", () =>
      Effect.gen(function* () {
        const server = yield* TestServer
        yield* insertOk(server, "texty", [
          { s: "2024-01-01T00:00:00Z", tags: ["a", "b"] },
          { s: "hello", tags: "c" }
        ])
        const rows = yield* sql(server, "SELECT s, tags, toTypeName(s) AS t FROM texty ORDER BY s")
        expect(rows).toEqual([
          { s: "2024-01-01 00:00:00", tags: "['a','b']", t: "Nullable(String)" },
          { s: "hello", tags: "c", t: "Nullable(String)" }
        ])
        const grouped = yield* sql(
          server,
          "SELECT s, count() AS c FROM texty WHERE s = 'hello' GROUP BY s"
        )
        expect(grouped).toEqual([{ s: "hello", c: "1" }])
      })
    )

    it.effect(
      "null and {} are dropped, ISO date-times are date-times, big integers are exact",
      () =>
        Effect.gen(function* () {
          const server = yield* TestServer
          // Raw text: a JavaScript number would already have lost the last digit.
          const reply = yield* insert(
            server,
            "kinds",
            '[{"id": 9007199254740993, "at": "2024-05-06T07:08:09.123Z", "gone": null, "empty": {}, "keep": {"x": 1, "nothing": null}}]'
          )
          expect(reply.json).toEqual({ inserted: 1 })
          const admin = yield* adminClientOf(server)
          const described = yield* admin.tables.describe({
            path: { table: TableName.make("kinds") },
            urlParams: {}
          })
          const columns = described.table.columns
          expect(columns.map((c) => c.name).sort()).toEqual(["at", "id", "keep.x"])
          expect(columns.find((c) => c.name === "at")?.type).toMatch(/^Nullable\(DateTime64/)
          const [row] = yield* sql(
            server,
            "SELECT toString(id) AS id, toTypeName(at) AS t, at > '2024-01-01' AS later FROM kinds"
          )
          expect(row).toEqual({
            id: "9007199254740993",
            t: expect.stringMatching(/DateTime64/),
            later: 1
          })
        })
    )

    describe("list, describe, delete", () => {
      it.effect("lists tables with created_at, rows and bytes; describe lists columns", () =>
        Effect.gen(function* () {
          const server = yield* TestServer
          const admin = yield* adminClientOf(server)
          yield* insertOk(server, "listed", [{ a: 1, b: { c: "x" } }, { a: 2 }])
          // A decoded list is a 200: the contract declares no other success status.
          const list = yield* admin.tables.list({ urlParams: {} })
          expect(list).toMatchObject({
            database: { name: "default" },
            organization: { name: "default" },
            tables: expect.arrayContaining([
              {
                name: "listed",
                created_at: expect.stringMatching(/^\d{4}-/),
                total_rows: 2,
                total_bytes: expect.any(Number)
              }
            ])
          })
          const names = list.tables.map((t) => t.name)
          expect(names.some((n) => n.startsWith("_"))).toBe(false)
          const one = yield* admin.tables.describe({
            path: { table: TableName.make("listed") },
            urlParams: {}
          })
          expect(one).toMatchObject({
            table: {
              name: "listed",
              total_rows: 2,
              columns: [
                { name: "a", type: "Nullable(Int64)" },
                { name: "b.c", type: "Nullable(String)" }
              ]
            }
          })
        })
      )

      it.effect("an unknown table is a 404 naming the tables that exist", () =>
        Effect.gen(function* () {
          const server = yield* TestServer
          const reply = yield* call(server, "GET", "/v1/tables/nope", { token: adminKeyOf(server) })
          expect(reply.status).toBe(404)
          expect(reply.json).toMatchObject({
            error: "not_found",
            hint: expect.stringContaining("events")
          })
        })
      )

      it.effect("delete needs an admin key and removes the table", () =>
        Effect.gen(function* () {
          const server = yield* TestServer
          const admin = adminKeyOf(server)
          const adminClient = yield* adminClientOf(server)
          const createKey = (name: string, permission: Permission) =>
            Effect.map(
              adminClient.keys.create({ urlParams: {}, payload: { name, permission } }),
              (created) => created.key.token
            )
          yield* insertOk(server, "doomed", { a: 1 })
          const rw = yield* createKey("rw", "read_write")
          const refused = yield* call(server, "DELETE", "/v1/tables/doomed", { token: rw })
          expect(refused.status).toBe(403)
          const readable = yield* call(server, "GET", "/v1/tables/doomed", { token: rw })
          expect(readable.status).toBe(200)
          for (const permission of ["read_only", "write_only"] as const) {
            const key = yield* createKey(permission, permission)
            const put = yield* call(server, "POST", "/v1/tables/doomed", {
              token: key,
              body: { a: 2 }
            })
            const read = yield* call(server, "GET", "/v1/tables", { token: key })
            expect([put.status, read.status]).toEqual(
              permission === "read_only" ? [403, 200] : [200, 403]
            )
          }
          const deleted = yield* call(server, "DELETE", "/v1/tables/doomed", { token: admin })
          expect(deleted.json).toEqual({ deleted: true })
          const gone = yield* call(server, "GET", "/v1/tables/doomed", { token: admin })
          expect(gone.status).toBe(404)
          const again = yield* call(server, "DELETE", "/v1/tables/doomed", { token: admin })
          expect(again.status).toBe(404)
        })
      )
    })
  }
)
