/**
 * A key of cluster A can never read or cancel anything of cluster B (issue "Bad input and
 * security"): clusters `alpha` and `bravo` of one organization, plus a cluster of another
 * organization; with alpha's key every data endpoint is tried against bravo, by selecting
 * it (403) and by plain requests that can only reach alpha; bravo's data stays whole.
 */
import { expect, layer } from "@effect/vitest"
import { Effect, Schema } from "effect"
import { otherCluster } from "../support/otherCluster.js"
import { TestServer, bodyOf, freshDataDir } from "../support/server.js"
import { poll, rowsOf, send } from "./securitySupport.js"
import { adminEnv, adminSession, awaitPhase, createCluster, expectError, keyOf } from "./support.js"
import { ApiKey } from "../../domain/api/KeysApi.js"
import { LogsPage } from "../../domain/api/LogsApi.js"
import { TableSummary } from "../../domain/api/TablesApi.js"

const Keys = Schema.Struct({ keys: Schema.Array(ApiKey) })

/** Streams rows from its first moment on, for far longer than the test runs. */
const LONG = "SELECT number FROM numbers(1e12)"

interface Fixture {
  readonly a: string
  readonly b: string
  /** An admin key of a cluster in the organization `faraway`. */
  readonly far: string
  readonly bKeyId: string
}

let arranged: Fixture | undefined

/** Once per file: both clusters ready, bravo holding data in `default` and `bonly`. */
const fixture = Effect.gen(function* () {
  if (arranged !== undefined) return arranged
  const server = yield* TestServer
  const session = yield* adminSession
  const alpha = yield* createCluster(session, "alpha")
  const bravo = yield* createCluster(session, "bravo")
  yield* awaitPhase(session, alpha.id, "ready")
  yield* awaitPhase(session, bravo.id, "ready")
  const a = yield* keyOf(session, "alpha")
  const b = yield* keyOf(session, "bravo")
  const far = (yield* otherCluster(server, "faraway")).token

  expect((yield* send(b, "POST", "/v1/databases", { body: { name: "bonly" } })).status).toBe(201)
  const secrets = [{ secret: "bravo-secret-1" }, { secret: "bravo-secret-2" }]
  for (const path of ["/v1/tables/secrets?database=bonly", "/v1/tables/shared"]) {
    const reply = yield* send(b, "POST", path, { body: secrets })
    expect(reply.json, reply.text).toEqual({ inserted: 2 })
  }
  const mine = yield* send(a, "POST", "/v1/tables/shared", { body: [{ secret: "alpha-own" }] })
  expect(mine.json, mine.text).toEqual({ inserted: 1 })

  const keys = bodyOf(Keys, yield* send(b, "GET", "/v1/keys"))
  const bKeyId = keys.keys.find((k) => k.name === "bravo admin")!.id
  arranged = { a, b, far, bKeyId }
  return arranged
})

/** Every data endpoint, as [method, path, body]; `sel` is the selector query string. */
const dataEndpoints = (sel: string): ReadonlyArray<readonly [string, string, unknown?]> => [
  ["GET", `/v1/databases?${sel}`],
  ["POST", `/v1/databases?${sel}`, { name: "intruder" }],
  ["DELETE", `/v1/databases/bonly?${sel}`],
  ["GET", `/v1/tables?${sel}`],
  ["GET", `/v1/tables?database=bonly&${sel}`],
  ["GET", `/v1/tables/secrets?database=bonly&${sel}`],
  ["POST", `/v1/tables/secrets?database=bonly&${sel}`, [{ secret: "planted" }]],
  ["DELETE", `/v1/tables/secrets?database=bonly&${sel}`],
  ["POST", `/v1/query?${sel}`, { sql: "SELECT * FROM bonly.secrets" }],
  ["POST", `/v1/query/cancel?${sel}`, { query_id: "anything" }],
  ["GET", `/v1/logs?${sel}`],
  ["GET", `/v1/keys?${sel}`],
  ["POST", `/v1/keys?${sel}`, { name: "intruder", permission: "admin" }],
  ["DELETE", `/v1/keys/00000000-0000-4000-8000-000000000000?${sel}`]
]

/** Bravo as bravo's own key sees it: both tables with exactly their two rows. */
const bravoIsWhole = (b: string) =>
  Effect.gen(function* () {
    const databases = bodyOf(
      Schema.Struct({ databases: Schema.Array(Schema.Struct({ name: Schema.String })) }),
      yield* send(b, "GET", "/v1/databases")
    )
    expect(databases.databases.map((d) => d.name).sort()).toEqual(["bonly", "default"])
    for (const table of ["bonly.secrets", "shared"])
      expect(yield* rowsOf(b, `SELECT secret FROM ${table} ORDER BY secret`)).toEqual([
        { secret: "bravo-secret-1" },
        { secret: "bravo-secret-2" }
      ])
    const keys = bodyOf(Keys, yield* send(b, "GET", "/v1/keys"))
    expect(keys.keys.map((k) => k.name)).toContain("bravo admin")
  })

layer(TestServer.layer(freshDataDir(), adminEnv), { excludeTestServices: true, timeout: 180_000 })(
  "cluster isolation",
  (it) => {
    it.effect("selecting cluster B or another organization with A's key is a 403 everywhere", () =>
      Effect.gen(function* () {
        const { a, b, far } = yield* fixture
        const selectors = [
          "organization=default&cluster=bravo",
          "cluster=bravo",
          "organization=faraway",
          "organization=faraway&cluster=faraway"
        ]
        for (const sel of selectors)
          for (const [method, path, body] of dataEndpoints(sel)) {
            const reply = yield* send(a, method, path, body === undefined ? {} : { body })
            const error = expectError(reply, 403, "forbidden")
            expect(error.hint, `${method} ${path}`).toContain("cluster 'alpha'")
            expect(reply.text).not.toContain("bravo-secret")
          }
        // The other organization's key cannot select bravo either.
        for (const [method, path, body] of dataEndpoints("organization=default&cluster=bravo"))
          expectError(
            yield* send(far, method, path, body === undefined ? {} : { body }),
            403,
            "forbidden"
          )
        yield* bravoIsWhole(b)
      })
    )

    it.effect("plain requests with A's key reach only A's databases and tables", () =>
      Effect.gen(function* () {
        const { a, b } = yield* fixture
        const databases = yield* send(a, "GET", "/v1/databases")
        expect(databases.json).toMatchObject({
          databases: [{ name: "default" }],
          cluster: { name: "alpha" },
          organization: { name: "default" }
        })
        expectError(yield* send(a, "DELETE", "/v1/databases/bonly"), 404, "not_found")
        expectError(yield* send(a, "GET", "/v1/tables?database=bonly"), 404, "not_found")
        expectError(
          yield* send(a, "GET", "/v1/tables", { headers: { "x-service-database": "bonly" } }),
          404,
          "not_found"
        )
        expectError(yield* send(a, "GET", "/v1/tables/secrets?database=bonly"), 404, "not_found")
        expectError(
          yield* send(a, "POST", "/v1/tables/secrets?database=bonly", {
            body: [{ secret: "planted" }]
          }),
          404,
          "not_found"
        )
        expectError(yield* send(a, "DELETE", "/v1/tables/secrets?database=bonly"), 404, "not_found")
        const tables = bodyOf(
          Schema.Struct({ tables: Schema.Array(TableSummary) }),
          yield* send(a, "GET", "/v1/tables")
        )
        expect(tables.tables.map((t) => [t.name, t.total_rows])).toEqual([["shared", 1]])
        const described = yield* send(a, "GET", "/v1/tables/shared")
        expect(described.status).toBe(200)
        expect(described.json).toMatchObject({ table: { name: "shared", total_rows: 1 } })
        expectError(yield* send(a, "GET", "/v1/tables/secrets"), 404, "not_found")

        // Same names as bravo's, but alpha's own: created, filled and dropped in alpha.
        expect((yield* send(a, "POST", "/v1/databases", { body: { name: "bonly" } })).status).toBe(
          201
        )
        const planted = yield* send(a, "POST", "/v1/tables/secrets?database=bonly", {
          body: [{ secret: "planted" }]
        })
        expect(planted.json).toEqual({ inserted: 1 })
        expect(yield* rowsOf(a, "SELECT secret FROM bonly.secrets")).toEqual([
          { secret: "planted" }
        ])
        yield* bravoIsWhole(b)
        expect((yield* send(a, "DELETE", "/v1/tables/secrets?database=bonly")).status).toBe(200)
        expect((yield* send(a, "DELETE", "/v1/tables/shared")).status).toBe(200)
        expect((yield* send(a, "DELETE", "/v1/databases/bonly")).json).toEqual({ deleted: true })
        yield* bravoIsWhole(b)
      })
    )

    it.effect("SQL from A that names B's databases or tables finds nothing of B", () =>
      Effect.gen(function* () {
        const { a, b } = yield* fixture
        for (const sql of [
          "SELECT * FROM bonly.secrets",
          "SELECT * FROM default.shared",
          "SELECT * FROM secrets"
        ]) {
          const reply = yield* send(a, "POST", "/v1/query", { body: { sql } })
          expect(reply.status, sql).toBe(400)
          expect(reply.json, sql).toMatchObject({ error: "bad_request" })
          expect(reply.text, sql).toMatch(/does not exist|not found|unknown/i)
          expect(reply.text).not.toContain("bravo-secret")
        }
        expectError(
          yield* send(a, "POST", "/v1/query?database=bonly", { body: { sql: "SELECT 1" } }),
          404,
          "not_found"
        )
        // The engine's catalog is not a way round: system tables naming objects are refused.
        const catalog = yield* send(a, "POST", "/v1/query", {
          body: { sql: "SELECT name FROM system.databases" }
        })
        expectError(catalog, 403, "forbidden")
        expect(catalog.text).not.toContain("bonly")
        yield* bravoIsWhole(b)
      })
    )

    it.effect("A's key cannot cancel a query running in B; B's key cancels it", () =>
      Effect.gen(function* () {
        const server = yield* TestServer
        const { a, b, far } = yield* fixture
        // Streamed, so that the first rows prove the query is running (and registered).
        const stream = yield* Effect.promise(async () => {
          const reply = await fetch(`${server.url}/v1/query`, {
            method: "POST",
            headers: { authorization: `Bearer ${b}`, "content-type": "application/json" },
            body: JSON.stringify({
              sql: LONG,
              format: "TSV",
              query_id: "bravo-long"
            })
          })
          const reader = reply.body!.getReader()
          await reader.read()
          return { status: reply.status, reader }
        })
        expect(stream.status).toBe(200)
        const cancel = (token: string, query = "") =>
          send(token, "POST", `/v1/query/cancel${query}`, { body: { query_id: "bravo-long" } })
        for (const [token, query] of [
          [a, ""],
          [a, "?database=default"],
          [far, ""]
        ] as const)
          expectError(yield* cancel(token, query), 404, "not_found")
        expectError(yield* cancel(a, "?organization=default&cluster=bravo"), 403, "forbidden")

        const own = yield* cancel(b)
        expect(own.status, own.text).toBe(200)
        expect(own.json).toEqual({ cancelled: true })
        // The stream ends, with the reason as its last line (not the time or result limit's)
        // and cut off: the result is not whole.
        const tail = yield* Effect.promise(async () => {
          const decoder = new TextDecoder()
          let text = ""
          try {
            for (;;) {
              const { done, value } = await stream.reader.read()
              if (done) return { text, complete: true }
              text = (text + decoder.decode(value, { stream: true })).slice(-200)
            }
          } catch {
            return { text, complete: false }
          }
        })
        expect(tail.complete).toBe(false)
        expect(tail.text.trim().split("\n").at(-1)).toBe("The query was cancelled.")
        expectError(yield* cancel(b), 404, "not_found")
        yield* bravoIsWhole(b)
      })
    )

    it.effect("A's logs and key list never show B's requests or keys", () =>
      Effect.gen(function* () {
        const { a, b, bKeyId } = yield* fixture
        const marker = "bravo_marker"
        expect((yield* send(b, "POST", `/v1/tables/${marker}`, { body: [{ x: 1 }] })).json).toEqual(
          { inserted: 1 }
        )
        const seenByB = yield* poll(
          "bravo's log entry",
          Effect.map(send(b, "GET", `/v1/logs?search=${marker}`), (reply) => {
            const logs = bodyOf(LogsPage, reply).logs
            return logs.length > 0 ? logs : undefined
          })
        )
        expect(seenByB[0]).toMatchObject({ path: `/v1/tables/${marker}`, cluster: "bravo" })
        // The log is written in order: everything B did up to its marker is in it now.

        const search = yield* send(a, "GET", `/v1/logs?search=${marker}`)
        expect(search.status).toBe(200)
        expect(bodyOf(LogsPage, search).logs).toEqual([])
        const all = bodyOf(LogsPage, yield* send(a, "GET", "/v1/logs?limit=200"))
        expect(all.logs.length).toBeGreaterThan(0)
        for (const entry of all.logs) {
          expect(entry.cluster).toBe("alpha")
          expect(entry.key_name).not.toBe("bravo admin")
        }
        expect(all.logs.filter((entry) => entry.path.includes(marker))).toEqual([])

        const keys = yield* send(a, "GET", "/v1/keys")
        expect(keys.status).toBe(200)
        const names = bodyOf(Keys, keys).keys
        expect(names.map((k) => k.name)).toEqual(["alpha admin"])
        expect(JSON.stringify(keys.json)).not.toContain(bKeyId)
        expectError(yield* send(a, "DELETE", `/v1/keys/${bKeyId}`), 404, "not_found")
        expectError(yield* send(a, "DELETE", `/v1/keys/${b}`), 404, "not_found")
        yield* bravoIsWhole(b)
        expect((yield* send(b, "GET", "/v1/databases")).status).toBe(200)
      })
    )
  }
)
