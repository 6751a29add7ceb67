/**
 * A cluster's engine worker killed with SIGKILL (embedded provisioner): the service
 * notices, restarts it, says so in `status.message`, keeps the cluster ready, loses no
 * acknowledged insert, and answers requests caught by the kill with the error shape
 * (500 `internal` with a trace id, or 503), never a hang.
 */
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { TestServer, call, freshDataDir } from "../support/server.js"
import type { Reply } from "../support/server.js"
import { childPids, workerPids } from "./workerProcesses.js"
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

const sleep = (ms: number) => Effect.promise(() => new Promise((r) => setTimeout(r, ms)))

const waitFor = <A>(what: string, look: () => A | undefined, ms = 60_000) =>
  Effect.gen(function* () {
    const until = Date.now() + ms
    while (true) {
      const found = look()
      if (found !== undefined) return found
      if (Date.now() > until) throw new Error(`timed out waiting for ${what}`)
      yield* sleep(100)
    }
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

/** Races `request` against a deadline far shorter than the test's: a hang fails here. */
const answeredWithin = (ms: number, request: Effect.Effect<Reply, never, TestServer>) =>
  request.pipe(
    Effect.timeoutFail({ duration: ms, onTimeout: () => new Error(`no answer in ${ms} ms`) }),
    Effect.orDie
  )

/**
 * An insert whose body is still arriving: `[` and a first row now, the rest after
 * `release` completes. Answers with the server's reply, whatever it is.
 */
const slowInsert = (url: string, token: string, table: string, release: Promise<void>) =>
  Effect.promise(async (): Promise<Reply> => {
    const encoder = new TextEncoder()
    const body = new ReadableStream<Uint8Array>({
      async start(controller) {
        controller.enqueue(encoder.encode(`[{"n":0}`))
        await release
        for (let n = 1; n < 1_000; n++) controller.enqueue(encoder.encode(`,{"n":${n}}`))
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
        const inFlight = yield* Effect.fork(
          answeredWithin(
            40_000,
            query(key, "SELECT count() FROM numbers(100000000000) WHERE sipHash64(number) = 0")
          )
        )
        yield* sleep(1_000)
        process.kill(before!, "SIGKILL")

        expectEngineLost(yield* inFlight)

        const noticed = yield* awaitCluster(
          token,
          created.id,
          (c) => c.status.message !== null,
          30_000
        )
        expect(noticed.status.phase).toBe("ready")
        expect(noticed.status.message).toMatch(/engine process was killed by SIGKILL/)
        expect(noticed.status.message).toMatch(/restarted/)

        const after = yield* waitFor("a new worker", () => {
          const pids = workerPids(created.id)
          return pids.length === 1 && pids[0] !== before ? pids[0] : undefined
        })
        expect(after).not.toBe(before)

        // Data requests work again and wait for the restart instead of failing.
        const counted = yield* answeredWithin(40_000, query(key, "SELECT count() AS n FROM acked"))
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
        const defaultCluster = (
          listed.json as { clusters: Array<{ id: string; name: string }> }
        ).clusters.find((c) => c.name === "default")!
        const key = yield* keyOf(token, "default")
        const kept = yield* insert(key, "kept", [{ a: 1 }, { a: 2 }, { a: 3 }])
        expect(kept.json, kept.text).toEqual({ inserted: 3 })

        const [before] = workerPids(defaultCluster.id)
        let release = () => {}
        const released = new Promise<void>((resolve) => (release = resolve))
        const inFlight = yield* Effect.fork(
          answeredWithin(40_000, slowInsert(server.url, key, "interrupted", released))
        )
        yield* sleep(1_000)
        process.kill(before!, "SIGKILL")
        yield* sleep(500)
        release()
        expectEngineLost(yield* inFlight)

        yield* waitFor("a new worker", () => {
          const pids = workerPids(defaultCluster.id)
          return pids.length === 1 && pids[0] !== before ? pids[0] : undefined
        })
        const counted = yield* answeredWithin(40_000, query(key, "SELECT count() AS n FROM kept"))
        expect(counted.text.trim()).toBe(`{"n":"3"}`)
        const view = yield* awaitPhase(token, defaultCluster.id, "ready")
        expect(view.status.message).toMatch(/killed by SIGKILL/)
      })
    )
  }
)
