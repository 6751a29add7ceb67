/**
 * The `hints` of `POST /v1/query`: a field that changed type still
 * aggregates, and the result says which values were skipped and where the originals are.
 */
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { QueryRequest } from "../../domain/api/QueryApi.js"
import { adminClientOf } from "../support/client.js"
import { onClickHouseServer } from "../support/engineSettings.js"
import { TestServer, adminKeyOf, call } from "../support/server.js"
import { insertOk } from "../tables/helpers.js"

/** A query in a raw format (its hints come in a header only). */
const query = (sql: string, format: string) =>
  Effect.gen(function* () {
    const server = yield* TestServer
    const reply = yield* call(server, "POST", "/v1/query", {
      token: adminKeyOf(server),
      body: { sql, format }
    })
    expect(reply.status, `${sql}: ${reply.text}`).toBe(200)
    return reply
  })

/** A JSON query with the typed client: the decoded result and the response (a 200). */
const queryJson = (sql: string) =>
  Effect.gen(function* () {
    const client = yield* adminClientOf(yield* TestServer)
    return yield* client.query.query({
      urlParams: {},
      payload: QueryRequest.make({ sql }),
      withResponse: true
    })
  })

const hintsOf = (sql: string) => Effect.map(queryJson(sql), ([result]) => result.hints)

layer(TestServer.layer(), { excludeTestServices: true, timeout: 120_000 })("query hints", (it) => {
  it.effect("a mixed numeric/string field sums, and the hint names it and its types", () =>
    Effect.gen(function* () {
      const server = yield* TestServer
      yield* insertOk(server, "prices", [
        { price: 1, name: "a", nested: { size: 1 } },
        { price: 2, name: "b", nested: { size: 2 } }
      ])
      yield* insertOk(server, "prices", [{ price: "n/a", name: "c", nested: { size: "big" } }])
      const [body, response] = yield* queryJson("SELECT sum(price) AS s FROM prices")
      expect(body.data).toEqual([{ s: 3 }])
      expect(body.hints).toHaveLength(1)
      expect(body.hints[0]).toContain("price holds Int64 and String values")
      expect(body.hints[0]).toContain("String values count as NULL")
      expect(body.hints[0]).toContain("__raw_data.price")
      expect(response.headers["x-service-hints"]).toBe(JSON.stringify(body.hints))
    })
  )

  it.effect("a single-typed field, or a mixed name only in a string or comment, has none", () =>
    Effect.gen(function* () {
      expect(yield* hintsOf("SELECT name, count() FROM prices GROUP BY name")).toEqual([])
      expect(yield* hintsOf("SELECT 'price' AS p FROM prices ORDER BY name")).toEqual([])
      expect(yield* hintsOf("SELECT name /* price */ FROM prices ORDER BY name")).toEqual([])
      expect(yield* hintsOf("SELECT name FROM prices ORDER BY name -- price\n")).toEqual([])
    })
  )

  it.effect("dotted, backquoted, qualified and aliased references are found", () =>
    Effect.gen(function* () {
      const nested = "nested.size holds Int64 and String values"
      expect((yield* hintsOf("SELECT max(nested.size) FROM prices"))[0]).toContain(nested)
      // On a ClickHouse server a cluster's databases have its namespace's names, which a
      // query does not write: it names the request's database's tables unqualified.
      if (!onClickHouseServer) {
        expect((yield* hintsOf("SELECT max(`nested.size`) FROM default.prices"))[0]).toContain(
          nested
        )
      }
      const both = yield* hintsOf(
        "SELECT p.price, p.nested.size FROM prices AS p WHERE p.price > 1 ORDER BY 1"
      )
      expect(both).toHaveLength(2)
    })
  )

  it.effect("SELECT * over a table with mixed fields gets a hint per field", () =>
    Effect.gen(function* () {
      const hints = yield* hintsOf("SELECT * FROM prices ORDER BY name")
      expect(hints).toHaveLength(2)
      expect(hints[0]).toContain("nested.size")
      expect(hints[1]).toContain("price")
      expect(yield* hintsOf("SELECT count(*) FROM prices")).toEqual([])
    })
  )

  it.effect("a table without mixed fields answers hints []", () =>
    Effect.gen(function* () {
      const server = yield* TestServer
      yield* insertOk(server, "plain", [{ v: 1 }, { v: 2 }])
      expect(yield* hintsOf("SELECT * FROM plain")).toEqual([])
      expect(yield* hintsOf("SELECT sum(v) FROM plain")).toEqual([])
      expect(yield* hintsOf("SELECT number FROM numbers(2)")).toEqual([])
    })
  )

  it.effect("other formats carry the hints in the x-service-hints header", () =>
    Effect.gen(function* () {
      const mixed = yield* query("SELECT sum(price) AS s FROM prices", "JSONEachRow")
      const header = mixed.headers.get("x-service-hints")
      expect(JSON.parse(header ?? "[]")).toEqual([expect.stringContaining("price holds")])
      const plain = yield* query("SELECT sum(v) FROM plain", "CSV")
      expect(plain.headers.get("x-service-hints")).toBeNull()
    })
  )

  it.effect("a field that becomes mixed is hinted from the next query on", () =>
    Effect.gen(function* () {
      const server = yield* TestServer
      yield* insertOk(server, "readings", [{ value: 1 }, { value: 2 }])
      // Read once while the field holds one type, so its columns are known (and kept).
      expect(yield* hintsOf("SELECT sum(value) FROM readings")).toEqual([])
      yield* insertOk(server, "readings", [{ value: "high" }])
      const hints = yield* hintsOf("SELECT sum(value) FROM readings")
      expect(hints).toHaveLength(1)
      expect(hints[0]).toContain("value holds Int64 and String values")
    })
  )
})
