/**
 * A cluster's engine worker killed with SIGKILL (embedded provisioner): the service
 * notices, restarts it, says so in `status.message`, keeps the cluster ready, loses no
 * acknowledged insert, and answers requests caught by the kill with the error shape
 * (500 `internal` with a trace id, or 503), never a hang.
 */
import { expect, layer } from "@effect/vitest"
import { Context, Effect, Stream, Schema } from "effect"
import { randomUUID } from "node:crypto"
import { Engines, EngineQuery } from "../../domain/Engine.js"
import { ClusterId } from "../../domain/Ids.js"
import { CHUNK_BYTES } from "../../src/ingest/BodyInsert.js"
import { eventually } from "../support/eventually.js"
import { TestServer, call, freshDataDir, bodyOf } from "../support/server.js"
import type { Reply } from "../support/server.js"
import { childPids, workerPids } from "./workerProcesses.js"
import { Cluster } from "../../domain/api/ClusterModels.js"
import {
  adminEnv,
  adminSession,
  awaitCluster,
  awaitPhase,
  createCluster,
  keyOf
} from "./support.js"

const BATCHES = 6
const ROWS = 250

/** Waits for another process (a worker dying, a new one starting) by looking again. */
const waitFor = <A>(what: string, look: () => A | undefined) =>
  eventually(what, Effect.sync(look), { attempts: 600, pauseMs: 100 })

/** Waits until `countSql` (a count, run on the cluster's engine) is above zero. */
const awaitInEngine = (clusterId: string, what: string, countSql: string) =>
  Effect.gen(function* () {
    const server = yield* TestServer
    const engine = yield* Context.get(server.context, Engines).forCluster(ClusterId.make(clusterId))
    const count = engine
      .query(new EngineQuery({ sql: countSql, format: "TabSeparated", queryId: randomUUID() }))
      .pipe(Stream.decodeText(), Stream.mkString, Effect.orDie)
    yield* eventually(
      what,
      Effect.map(count, (n) => (Number(n.trim()) > 0 ? true : undefined))
    )
  })

const insert = (token: string, table: string, rows: unknown) =>
  Effect.flatMap(TestServer, (server) =>
    call(server, "POST", `/v1/tables/${table}`, { token, body: rows })
  )

const query = (token: string, sql: string) =>
  Effect.flatMap(TestServer, (server) =>
    call(server, "POST", "/v1/query", { token, body: { sql, format: "JSONEachRow" } })
  )

/** A failure caused by the engine going away, in the documented error shape. */
const expectEngineLost = (reply: Reply) => {
  expect(reply.status, `${reply.status} ${reply.text}`).toBe(503)
  expect(reply.json).toMatchObject({
    error: "unavailable",
    message: expect.stringMatching(/engine stopped/),
    hint: expect.stringMatching(/Retry/)
  })
}

// Rows of about 1 KB: the head of the slow insert fills more than one insert chunk.
const padded = (n: number) => `{"n":${n},"pad":"${"x".repeat(1000)}"}`
const HEAD_ROWS = Math.ceil((CHUNK_BYTES * 1.25) / padded(0).length)

/**
 * An insert whose body is still arriving: `[` and more than a chunk of rows now (so the
 * first chunk goes into the engine), the rest after `release` completes. Answers with the
 * server's reply, whatever it is.
 */
const slowInsert = (url: string, token: string, table: string, release: Promise<void>) =>
  Effect.promise(async (): Promise<Reply> => {
    const encoder = new TextEncoder()
    const body = new ReadableStream<Uint8Array>({
      async start(controller) {
        const head = Array.from({ length: HEAD_ROWS }, (_, n) => padded(n)).join(",")
        controller.enqueue(encoder.encode(`[${head}`))
        await release
        for (let n = HEAD_ROWS; n < HEAD_ROWS + 1_000; n++)
          controller.enqueue(encoder.encode(`,${padded(n)}`))
        controller.enqueue(encoder.encode("]"))
        controller.close()
      }
    })
    const init: RequestInit & { duplex: "half" } = {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body,
      duplex: "half"
    }
    const response = await fetch(`${url}/v1/tables/${table}`, init)
    const text = await response.text()
    let json: unknown = undefined
    try {
      json = JSON.parse(text)
    } catch {
      json = undefined
    }
    return { status: response.status, headers: response.headers, text, json }
  })

layer(TestServer.layer(freshDataDir(), adminEnv), { excludeTestServices: true, timeout: 180_000 })(
  "engine crash",
  (it) => {
    it.effect("a killed engine restarts, says so, and keeps every acknowledged row", () =>
      Effect.gen(function* () {
        const token = yield* adminSession
        const created = yield* createCluster(token, "crashy")
        yield* awaitPhase(token, created.id, "ready")
        const key = yield* keyOf(token, "crashy")

        let acknowledged = 0
        for (let batch = 0; batch < BATCHES; batch++) {
          const rows = Array.from({ length: ROWS }, (_, i) => ({ batch, i, note: `row ${i}` }))
          const reply = yield* insert(key, "acked", rows)
          expect(reply.json, reply.text).toEqual({ inserted: ROWS })
          acknowledged += ROWS
        }

        const [before, ...others] = workerPids(created.id)
        expect(others).toEqual([])
        expect(before).toBeGreaterThan(0)
        // Every engine worker (each cluster's and any spare) is a child of this process.
        const processes = childPids(process.pid).length

        // A query long enough to be running when the engine dies (no output before it ends).
        // A hang instead of an answer fails the test by its timeout.
        const long =
          "SELECT count() AS doomed FROM numbers(100000000000) WHERE sipHash64(number) = 0"
        const inFlight = yield* Effect.fork(query(key, long))
        yield* awaitInEngine(
          created.id,
          "the query to run in the engine",
          "SELECT count() FROM system.processes " +
            "WHERE startsWith(query, 'SELECT count() AS doomed') AND position(query, 'processes') = 0"
        )
        process.kill(before!, "SIGKILL")

        expectEngineLost(yield* inFlight)

        const noticed = yield* awaitCluster(token, created.id, (c) => c.status.message !== null)
        expect(noticed.status.phase).toBe("ready")
        expect(noticed.status.message).toMatch(/engine process was killed by SIGKILL/)
        expect(noticed.status.message).toMatch(/restarted/)

        const after = yield* waitFor("a new worker", () => {
          const pids = workerPids(created.id)
          return pids.length === 1 && pids[0] !== before ? pids[0] : undefined
        })
        expect(after).not.toBe(before)

        // Data requests work again and wait for the restart instead of failing.
        const counted = yield* query(key, "SELECT count() AS n FROM acked")
        expect(counted.status, counted.text).toBe(200)
        expect(counted.text.trim()).toBe(`{"n":"${acknowledged}"}`)
        const more = yield* insert(key, "acked", [{ batch: BATCHES, i: 0, note: "after" }])
        expect(more.json, more.text).toEqual({ inserted: 1 })
        const again = yield* query(key, "SELECT count() AS n FROM acked")
        expect(again.text.trim()).toBe(`{"n":"${acknowledged + 1}"}`)

        const view = yield* awaitPhase(token, created.id, "ready")
        expect([view.status.ready, view.can_pause]).toEqual([true, true])
        expect(view.status.message).toMatch(/killed by SIGKILL/)
        // One worker per cluster, still, and no more processes than before the kill.
        expect(workerPids(created.id)).toEqual([after])
        yield* waitFor("as many worker processes as before", () =>
          childPids(process.pid).length === processes ? true : undefined
        )
      })
    )
    it.effect("an insert streaming while the engine dies gets an error, not a hang", () =>
      Effect.gen(function* () {
        const server = yield* TestServer
        const token = yield* adminSession
        const listed = yield* call(server, "GET", "/v1/clusters?organization=default", { token })
        const defaultCluster = bodyOf(
          Schema.Struct({ clusters: Schema.Array(Cluster) }),
          listed
        ).clusters.find((c) => c.name === "default")!
        const key = yield* keyOf(token, "default")
        const kept = yield* insert(key, "kept", [{ a: 1 }, { a: 2 }, { a: 3 }])
        expect(kept.json, kept.text).toEqual({ inserted: 3 })

        const [before] = workerPids(defaultCluster.id)
        let release = () => {}
        const released = new Promise<void>((resolve) => (release = resolve))
        const inFlight = yield* Effect.fork(slowInsert(server.url, key, "interrupted", released))
        // The first chunk is in a staging table: the insert is under way in the engine.
        yield* awaitInEngine(
          defaultCluster.id,
          "the insert's first chunk in the engine",
          "SELECT sum(rows) FROM system.parts " +
            "WHERE database = 'default' AND startsWith(table, '__staging_') AND active"
        ).pipe(Effect.onError(() => Effect.sync(release)))
        process.kill(before!, "SIGKILL")
        // The rest of the body arrives once the engine is gone.
        yield* waitFor("the killed worker to be gone", () =>
          workerPids(defaultCluster.id).includes(before!) ? undefined : true
        )
        release()
        expectEngineLost(yield* inFlight)

        yield* waitFor("a new worker", () => {
          const pids = workerPids(defaultCluster.id)
          return pids.length === 1 && pids[0] !== before ? pids[0] : undefined
        })
        const counted = yield* query(key, "SELECT count() AS n FROM kept")
        expect(counted.text.trim()).toBe(`{"n":"3"}`)
        const view = yield* awaitPhase(token, defaultCluster.id, "ready")
        expect(view.status.message).toMatch(/killed by SIGKILL/)
      })
    )
  }
)
