/**
 * Insert tokens are exactly-once across a crash of the cluster's engine worker: 8 writers
 * retry their token-carrying batches until acknowledged while the worker is killed with
 * SIGKILL, and afterwards every batch is stored once. The kill falls between a batch's
 * rows and its token's record, where a retry used to store the rows again: the token
 * table is made slow to take a row (a column that sleeps on insert), and the worker dies
 * once the rows are in the table, while the token's row is still being written.
 */
import { expect, layer } from "@effect/vitest"
import { Context, Effect, Stream } from "effect"
import { randomUUID } from "node:crypto"
import { Engines, EngineQuery } from "../../domain/Engine.js"
import { ClusterId } from "../../domain/Ids.js"
import { TOKENS_TABLE } from "../../src/tables/Layout.js"
import { adminEnv, adminSession, defaultClusterId, keyOf } from "../clusters/support.js"
import { workerPids } from "../clusters/workerProcesses.js"
import { eventually } from "../support/eventually.js"
import { TestServer, call, freshDataDir } from "../support/server.js"

const WRITERS = 8
const BATCHES = 3
const ROWS = 40

const engineOf = (clusterId: string) =>
  Effect.flatMap(TestServer, (server) =>
    Context.get(server.context, Engines).forCluster(ClusterId.make(clusterId))
  )

/** A statement on the cluster's engine, its TabSeparated answer as text. */
const onEngine = (clusterId: string, sql: string) =>
  Effect.flatMap(engineOf(clusterId), (engine) =>
    engine
      .query(new EngineQuery({ sql, format: "TabSeparated", queryId: randomUUID() }))
      .pipe(Stream.decodeText(), Stream.mkString)
  ).pipe(Effect.orDie)

/** Sends one batch with its token until it is acknowledged (a retry as a client makes it). */
const sendUntilAcknowledged = (key: string, table: string, writer: number, batch: number) =>
  Effect.gen(function* () {
    const server = yield* TestServer
    const rows = Array.from({ length: ROWS }, (_, i) => ({ writer, batch, i }))
    const token = `w${writer}-b${batch}`
    return yield* eventually(
      `batch ${token} to be acknowledged`,
      Effect.map(
        call(server, "POST", `/v1/tables/${table}?insert_deduplication_token=${token}`, {
          token: key,
          body: rows
        }),
        (reply) => (reply.status === 200 ? reply.json : undefined)
      ),
      { attempts: 600, pauseMs: 100 }
    )
  })

/**
 * Kills the worker once `table` holds rows whose token is not recorded yet (the token
 * table sleeps 2 s on each row), then lets the token table take rows at once again.
 */
const killBetweenRowsAndToken = (clusterId: string, table: string) =>
  Effect.gen(function* () {
    yield* onEngine(
      clusterId,
      `ALTER TABLE default.${TOKENS_TABLE} ADD COLUMN IF NOT EXISTS slow UInt8 MATERIALIZED sleepEachRow(2)`
    )
    const [worker] = workerPids(clusterId)
    // Fails until the table and its columns exist: not yet, then.
    const window = onEngine(
      clusterId,
      `SELECT (SELECT count() FROM default.${TOKENS_TABLE} WHERE table = '${table}') < ` +
        `(SELECT uniqExact(writer, batch) FROM default.${table} WHERE writer >= 0)`
    ).pipe(Effect.catchAllDefect(() => Effect.succeed("")))
    yield* eventually(
      "a batch's rows in the table before its token",
      Effect.map(window, (answer) => (answer.trim() === "1" ? true : undefined)),
      { attempts: 1000, pauseMs: 20 }
    )
    process.kill(worker!, "SIGKILL")
    yield* eventually(
      "a new worker",
      Effect.sync(() => {
        const pids = workerPids(clusterId)
        return pids.length === 1 && pids[0] !== worker ? true : undefined
      }),
      { attempts: 600, pauseMs: 100 }
    )
    yield* onEngine(clusterId, `ALTER TABLE default.${TOKENS_TABLE} DROP COLUMN slow`)
  })

layer(TestServer.layer(freshDataDir(), adminEnv), { excludeTestServices: true, timeout: 240_000 })(
  "insert tokens across an engine crash",
  (it) => {
    const run = (
      table: string,
      before: (key: string) => Effect.Effect<unknown, never, TestServer>
    ) =>
      Effect.gen(function* () {
        const session = yield* adminSession
        const clusterId = yield* defaultClusterId(session)
        const key = yield* keyOf(session, "default")
        yield* before(key)
        yield* onEngine(
          clusterId,
          `CREATE TABLE IF NOT EXISTS default.${TOKENS_TABLE} ` +
            "(table String, token String, body_hash String, inserted UInt64, at DateTime DEFAULT now()) " +
            "ENGINE = MergeTree ORDER BY (table, token) TTL at + INTERVAL 1 DAY"
        )
        const writers = Effect.forEach(
          Array.from({ length: WRITERS }, (_, writer) => writer),
          (writer) =>
            Effect.forEach(
              Array.from({ length: BATCHES }, (_, batch) => batch),
              (batch) => sendUntilAcknowledged(key, table, writer, batch)
            ),
          { concurrency: WRITERS }
        )
        const [acknowledged] = yield* Effect.all(
          [writers, killBetweenRowsAndToken(clusterId, table)],
          { concurrency: 2 }
        )
        expect(acknowledged.flat()).toEqual(
          Array.from({ length: WRITERS * BATCHES }, () => ({ inserted: ROWS }))
        )
        const stored = yield* onEngine(
          clusterId,
          `SELECT writer, batch, count() FROM default.${table} WHERE writer >= 0 GROUP BY writer, batch ORDER BY writer, batch`
        )
        const expected = Array.from({ length: WRITERS }, (_, writer) =>
          Array.from({ length: BATCHES }, (_, batch) => `${writer}\t${batch}\t${ROWS}`)
        ).flat()
        expect(stored.trim().split("\n")).toEqual(expected)
      })

    it.effect("a table's first inserts (through a staging table) store each batch once", () =>
      run("first_inserts", () => Effect.void)
    )

    it.effect("equal bodies without a token are each stored, in either way of inserting", () =>
      Effect.gen(function* () {
        const server = yield* TestServer
        const session = yield* adminSession
        const clusterId = yield* defaultClusterId(session)
        const key = yield* keyOf(session, "default")
        // The first goes through a staging table, the others in one statement each.
        for (let n = 0; n < 3; n++) {
          const reply = yield* call(server, "POST", "/v1/tables/twice", {
            token: key,
            body: [{ same: 1 }, { same: 2 }]
          })
          expect(reply.json, reply.text).toEqual({ inserted: 2 })
        }
        const rows = yield* onEngine(clusterId, "SELECT count() FROM default.twice")
        expect(rows.trim()).toBe("6")
      })
    )

    it.effect("inserts into a known table (one statement each) store each batch once", () =>
      run("known_table", (key) =>
        Effect.flatMap(TestServer, (server) =>
          call(server, "POST", "/v1/tables/known_table", {
            token: key,
            body: [{ writer: -1, batch: -1, i: -1 }]
          })
        )
      )
    )
  }
)
