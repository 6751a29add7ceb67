/**
 * Keys that cannot name a column: empty keys, keys whose dots leave an empty part, and
 * the keys the table keeps records under. Each is a 400 naming the key, and the body is
 * refused whole: its valid records are not stored either.
 */
import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { TestServer, freshDataDir } from "../support/server.js"
import { insert, insertOk, sql } from "./helpers.js"

const count = (table: string) =>
  Effect.gen(function* () {
    const server = yield* TestServer
    const rows = yield* sql(server, `SELECT count() AS c FROM ${table}`)
    return Number(rows[0]?.c)
  })

const refused = (table: string, body: string, named: string) =>
  Effect.gen(function* () {
    const server = yield* TestServer
    const reply = yield* insert(server, table, body)
    expect(reply.status, `${body}: ${reply.text}`).toBe(400)
    const error = reply.json as { error: string; message: string; hint: string }
    expect(error.error).toBe("bad_request")
    expect(error.message).toContain(named)
    expect(error.hint).toContain("Nothing was inserted.")
  })

layer(TestServer.layer(freshDataDir()), { excludeTestServices: true, timeout: 120_000 })(
  "record keys",
  (it) => {
    describe("keys with no name", () => {
      it.effect("an empty key, two dots, a leading dot and an empty nested key are 400s", () =>
        Effect.gen(function* () {
          yield* insertOk(yield* TestServer, "names", { ok: 1 })
          yield* refused("names", '{"":1}', "''")
          yield* refused("names", '{"a..b":1}', "'a..b'")
          yield* refused("names", '{".lead":1}', "'.lead'")
          yield* refused("names", '{"a":{"":1}}', "'a.'")
          yield* refused("names", '{"trail.":1}', "'trail.'")
          expect(yield* count("names")).toBe(1)
        })
      )

      it.effect("a valid record beside a bad one is not stored", () =>
        Effect.gen(function* () {
          yield* refused("mixed", '[{"fine":1},{"":2}]', "''")
          yield* refused("mixed", '{"fine":1}\n{"x":{"":2}}\n', "'x.'")
          yield* insertOk(yield* TestServer, "mixed", { fine: 3 })
          const rows = yield* sql(yield* TestServer, "SELECT fine FROM mixed")
          expect(rows).toEqual([{ fine: "3" }])
        })
      )
    })

    describe("reserved keys", () => {
      it.effect("__raw and __raw_data are refused by name, whatever their value", () =>
        Effect.gen(function* () {
          yield* insertOk(yield* TestServer, "kept", { ok: 1 })
          yield* refused("kept", '{"__raw":1,"ok":2}', "'__raw'")
          yield* refused("kept", '{"__raw_data":"text"}', "'__raw_data'")
          yield* refused("kept", '{"__raw_data":{"x":1}}', "'__raw_data'")
          expect(yield* count("kept")).toBe(1)
        })
      )

      it.effect("the same names deeper in a record are ordinary keys", () =>
        Effect.gen(function* () {
          yield* insertOk(yield* TestServer, "deeper", { x: { __raw: 1, __raw_data: "a" } })
          const rows = yield* sql(yield* TestServer, "SELECT `x.__raw`, `x.__raw_data` FROM deeper")
          expect(rows).toEqual([{ "x.__raw": "1", "x.__raw_data": "a" }])
        })
      )
    })
  }
)
