/**
 * Many inserters into one table at once, and retries: concurrent inserts lose and
 * duplicate nothing; an insert token with the same body inserts once.
 */
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { eventually } from "../support/eventually.js"
import { TestServer, createDatabase } from "../support/server.js"
import { insert, sql } from "./helpers.js"

const batch = (client: number, n: number) =>
  JSON.stringify(
    Array.from({ length: n }, (_, i) => ({ client, seq: i, payload: { v: client * 1000 + i } }))
  )

const total = (table: string) =>
  Effect.gen(function* () {
    const server = yield* TestServer
    const rows = yield* sql(
      server,
      `SELECT count() AS c, uniqExact(client, seq) AS u FROM ${table}`
    )
    return rows[0]
  })

layer(TestServer.layer(), { excludeTestServices: true, timeout: 120_000 })(
  "concurrent and repeated inserts",
  (it) => {
    it.effect("8 concurrent inserts into a new table keep every row exactly once", () =>
      Effect.gen(function* () {
        const server = yield* TestServer
        const replies = yield* Effect.forEach(
          Array.from({ length: 8 }, (_, client) => client),
          (client) => insert(server, "busy", batch(client, 2_000)),
          { concurrency: "unbounded" }
        )
        expect(replies.map((r) => r.json)).toEqual(Array(8).fill({ inserted: 2_000 }))
        expect(yield* total("busy")).toEqual({ c: "16000", u: "16000" })
      })
    )

    // Staging tables are emptied after their rows went in and then reused: a reused one
    // must bring none of its earlier rows along.
    it.effect("inserts one after another, reusing staging tables, keep every row once", () =>
      Effect.gen(function* () {
        const server = yield* TestServer
        for (let client = 0; client < 12; client++) {
          const reply = yield* insert(server, "sequential", batch(client, 5))
          expect(reply.json).toEqual({ inserted: 5 })
        }
        expect(yield* total("sequential")).toEqual({ c: "60", u: "60" })
      })
    )

    it.effect(
      "staging tables this node's previous process left behind are dropped, another node's kept",
      () =>
        Effect.gen(function* () {
          const server = yield* TestServer
          const json = { "content-type": "application/json" }
          const staging = (database: string) =>
            Effect.map(
              sql(
                server,
                "SELECT name FROM system.tables " +
                  "WHERE database = currentDatabase() AND startsWith(name, '__staging_')",
                database
              ),
              (rows) => rows.map((r) => String(r.name)).sort()
            )
          // This node's staging tables share a prefix: learn it from one it pooled.
          yield* createDatabase(server, "learn")
          yield* insert(server, "t", batch(1, 3), { ...json, "x-service-database": "learn" })
          const [pooled] = yield* staging("learn")
          const ownPrefix = /^__staging_[0-9a-f]{8}_/.exec(pooled ?? "")?.[0]
          expect(ownPrefix).toBeDefined()

          yield* createDatabase(server, "sweep")
          const ownLeftover = `${ownPrefix}${"0".repeat(32)}`
          const olderRelease = `__staging_${"a".repeat(32)}`
          const otherNode = `__staging_0badc0de_${"b".repeat(32)}`
          for (const name of [ownLeftover, olderRelease, otherNode]) {
            yield* sql(server, `CREATE TABLE ${name} (x UInt8) ENGINE = Memory`, "sweep")
          }
          const reply = yield* insert(server, "t", batch(1, 3), {
            ...json,
            "x-service-database": "sweep"
          })
          expect(reply.json).toEqual({ inserted: 3 })
          // The sweep runs in the background after the insert has answered.
          const left = yield* eventually(
            "this node's and the older release's leftovers to be dropped",
            Effect.map(staging("sweep"), (names) =>
              names.includes(ownLeftover) || names.includes(olderRelease) ? undefined : names
            )
          )
          // Another node's table (in use on a shared server) stays, beside the one pooled.
          expect(left).toContain(otherNode)
          expect(left.length).toBe(2)
        })
    )

    it.effect("the same token and body insert once, by parameter or idempotency-key", () =>
      Effect.gen(function* () {
        const server = yield* TestServer
        const body = batch(1, 10)
        const json = { "content-type": "application/json" }
        const first = yield* insert(server, "retried", body, json, "?insert_deduplication_token=t1")
        const again = yield* insert(server, "retried", body, json, "?insert_deduplication_token=t1")
        expect([first.json, again.json]).toEqual([{ inserted: 10 }, { inserted: 10 }])
        expect(yield* total("retried")).toEqual({ c: "10", u: "10" })
        const keyed = { ...json, "idempotency-key": "k1" }
        const parallel = yield* Effect.forEach(
          [1, 2, 3],
          () => insert(server, "retried", batch(2, 5), keyed),
          {
            concurrency: "unbounded"
          }
        )
        expect(parallel.map((r) => r.json)).toEqual(Array(3).fill({ inserted: 5 }))
        expect(yield* total("retried")).toEqual({ c: "15", u: "15" })
        const reused = yield* insert(server, "retried", batch(3, 5), keyed)
        expect(reused.status).toBe(409)
        expect(reused.json).toMatchObject({ error: "insert_token_reused" })
        const fresh = yield* insert(server, "retried", body, json, "?insert_deduplication_token=t2")
        expect(fresh.json).toEqual({ inserted: 10 })
        expect((yield* total("retried"))?.c).toBe("25")
      })
    )
  }
)
