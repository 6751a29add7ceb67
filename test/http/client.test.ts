/**
 * The public typed client (`domain/Client.ts`) end to end, as an outside TypeScript user
 * runs it: built from the contract over fetch, a bearer token on every request, decoded
 * successes, and error bodies decoded into the domain error classes.
 */
import { FetchHttpClient, HttpApiClient } from "@effect/platform"
import { describe, expect, it, layer } from "@effect/vitest"
import { Effect } from "effect"
import { SluiceApi } from "../../domain/Api.js"
import { QueryRequest } from "../../domain/api/QueryApi.js"
import { makeSluiceClient } from "../../domain/Client.js"
import { Conflict, NotFound, Unauthorized } from "../../domain/Errors.js"
import { DatabaseName, TableName } from "../../domain/Ids.js"
import { TestServer, adminKeyOf, call, freshDataDir } from "../support/server.js"

layer(TestServer.layer(freshDataDir()), { excludeTestServices: true, timeout: 120_000 })(
  "typed client",
  (it) => {
    it.effect("creates a database, lists and describes its table, queries it", () =>
      Effect.gen(function* () {
        const server = yield* TestServer
        const client = yield* makeSluiceClient({ baseUrl: server.url, token: adminKeyOf(server) })

        const created = yield* client.databases.create({
          urlParams: {},
          payload: { name: DatabaseName.make("shop") }
        })
        expect(created).toEqual({
          name: "shop",
          database: { name: "shop", s3_storage: null },
          organization: { name: "default" }
        })

        // Inserts read their body raw, so they go over plain HTTP.
        const inserted = yield* call(server, "POST", "/v1/tables/orders?database=shop", {
          token: adminKeyOf(server),
          body: [
            { sku: "a", qty: 2 },
            { sku: "b", qty: 3 }
          ]
        })
        expect(inserted.json, inserted.text).toEqual({ inserted: 2 })

        const scope = { database: "shop" }
        const tables = yield* client.tables.list({ urlParams: scope })
        expect(tables.database).toEqual({ name: "shop" })
        expect(tables.tables.map((t) => [t.name, t.total_rows])).toEqual([["orders", 2]])

        const described = yield* client.tables.describe({
          path: { table: TableName.make("orders") },
          urlParams: scope
        })
        expect(described.table.columns.map((c) => c.name)).toEqual(["qty", "sku"])

        const result = yield* client.query.query({
          urlParams: scope,
          payload: QueryRequest.make({ sql: "SELECT sku, qty FROM orders ORDER BY sku" })
        })
        expect(result.rows).toBe(2)
        // Int64 values travel as JSON strings, as ClickHouse writes them.
        expect(result.data).toEqual([
          { sku: "a", qty: "2" },
          { sku: "b", qty: "3" }
        ])
        expect(result.meta.map((m) => m.name)).toEqual(["sku", "qty"])
        expect(result.hints).toEqual([])
      }).pipe(Effect.provide(FetchHttpClient.layer))
    )

    it.effect("error bodies decode into the domain errors", () =>
      Effect.gen(function* () {
        const server = yield* TestServer
        const client = yield* makeSluiceClient({ baseUrl: server.url, token: adminKeyOf(server) })

        const missing = yield* Effect.flip(
          client.tables.describe({ path: { table: TableName.make("nope") }, urlParams: {} })
        )
        expect(missing).toBeInstanceOf(NotFound)
        expect(missing).toMatchObject({
          message: expect.stringContaining("nope"),
          hint: expect.any(String)
        })

        const duplicate = yield* Effect.flip(
          client.databases.create({
            urlParams: {},
            payload: { name: DatabaseName.make("default") }
          })
        )
        expect(duplicate).toBeInstanceOf(Conflict)
        expect(duplicate).toMatchObject({
          code: "conflict",
          message: expect.stringContaining("already exists")
        })

        const anonymous = yield* makeSluiceClient({ baseUrl: server.url })
        expect(yield* anonymous.health.health()).toEqual({ status: "ok" })
        const refused = yield* Effect.flip(anonymous.tables.list({ urlParams: {} }))
        expect(refused).toBeInstanceOf(Unauthorized)
      }).pipe(Effect.provide(FetchHttpClient.layer))
    )
  }
)

describe("typed client's methods", () => {
  // Each method is built on its first call: the client must still have every group and
  // endpoint, by the names `HttpApiClient.make` gives them.
  const shape = (client: object) =>
    Object.entries(client)
      .map(
        ([group, methods]) =>
          `${group}: ${Object.keys(methods as object)
            .sort()
            .join(" ")}`
      )
      .sort()

  it.effect("are those of the whole contract, by the names HttpApiClient.make gives them", () =>
    Effect.gen(function* () {
      const built = yield* HttpApiClient.make(SluiceApi, { baseUrl: "http://127.0.0.1:9" })
      const lazy = yield* makeSluiceClient({ baseUrl: "http://127.0.0.1:9" })
      expect(shape(lazy)).toEqual(shape(built))
      expect(shape(lazy).length).toBeGreaterThan(10)
    }).pipe(Effect.provide(FetchHttpClient.layer))
  )
})
