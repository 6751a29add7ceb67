/**
 * Automatic idling, driven by the Effect `TestClock` (no real waiting): a cluster with no
 * data request for its idle timeout pauses itself; the next data request wakes it and is
 * served; a cluster with idling off never pauses.
 */
import { expect, layer } from "@effect/vitest"
import { Clock, Context, Effect, Layer, TestClock, Schema } from "effect"
import type { Duration } from "effect"
import { eventually } from "../support/eventually.js"
import { TestServer, call, freshDataDir, bodyOf } from "../support/server.js"
import { SpanCounts } from "../support/spanCounts.js"
import { Cluster } from "../../domain/api/ClusterModels.js"
import { ClusterId } from "../../domain/Ids.js"
import { ClustersRepo } from "../../src/clusters/ClustersRepo.js"
import {
  adminEnv,
  adminSession,
  awaitPhase,
  cluster,
  createCluster,
  keyOf,
  request
} from "./support.js"

/**
 * Lets `duration` pass on the TestClock, then waits until the idling sweeps that woke have
 * finished (their database work is real I/O), so what they decided shows in the API.
 */
const idleFor = (duration: Duration.DurationInput) =>
  Effect.gen(function* () {
    const spans = yield* SpanCounts
    const before = spans.of("Idling.sweep").started
    yield* TestClock.adjust(duration)
    yield* eventually(
      "the idling sweep to finish",
      Effect.sync(() => {
        const sweeps = spans.of("Idling.sweep")
        return sweeps.started > before && sweeps.ended === sweeps.started ? true : undefined
      })
    )
  })

const countRows = (token: string) =>
  Effect.flatMap(TestServer, (server) =>
    call(server, "POST", "/v1/query", {
      token,
      body: { sql: "SELECT count() AS n FROM naps", format: "JSONEachRow" }
    })
  )

const ServerLive = TestServer.layer(freshDataDir(), adminEnv).pipe(
  Layer.provideMerge(SpanCounts.layer)
)

layer(ServerLive, { timeout: 180_000 })("idling", (it) => {
  it.effect("an idle cluster pauses itself after its timeout and wakes on the next query", () =>
    Effect.gen(function* () {
      const server = yield* TestServer
      const token = yield* adminSession
      const created = yield* createCluster(token, "sleepy", { idle_timeout_minutes: 15 })
      yield* awaitPhase(token, created.id, "ready")
      const key = yield* keyOf(token, "sleepy")
      const inserted = yield* call(server, "POST", "/v1/tables/naps", {
        token: key,
        body: [{ z: 1 }]
      })
      expect(inserted.json).toEqual({ inserted: 1 })
      const phase = () =>
        Effect.map(
          request("GET", `/v1/clusters/${created.id}?organization=default`, token),
          (reply) => cluster(reply).status.phase
        )

      // 14 idle minutes: still running. A query then restarts the count.
      yield* idleFor("14 minutes")
      expect(yield* phase()).toBe("ready")
      expect((yield* countRows(key)).text.trim()).toBe('{"n":"1"}')
      yield* idleFor("14 minutes")
      expect(yield* phase()).toBe("ready")

      // Past 15 minutes since the last request: it pauses itself, as `idle`.
      yield* TestClock.adjust("2 minutes")
      const paused = yield* awaitPhase(token, created.id, "paused")
      expect([paused.status.ready, paused.can_pause, paused.can_resume]).toEqual([
        false,
        false,
        true
      ])

      // The next data request wakes it and is answered, with the data intact.
      const woken = yield* countRows(key)
      expect(woken.status, woken.text).toBe(200)
      expect(woken.text.trim()).toBe('{"n":"1"}')
      expect(yield* phase()).toBe("ready")

      // The bootstrap cluster has idling off: never paused, however long it sits.
      const clusters = yield* request("GET", "/v1/clusters?organization=default", token)
      const byName = bodyOf(Schema.Struct({ clusters: Schema.Array(Cluster) }), clusters).clusters
      expect(byName.find((c) => c.name === "default")?.status.phase).toBe("ready")
    })
  )

  it.effect("requests another node served keep a cluster awake", () =>
    Effect.gen(function* () {
      const server = yield* TestServer
      const token = yield* adminSession
      const created = yield* createCluster(token, "busy-elsewhere", { idle_timeout_minutes: 15 })
      yield* awaitPhase(token, created.id, "ready")
      // A sweep each minute, each one finished before the next minute passes.
      const minuteByMinute = (minutes: number) => Effect.repeatN(idleFor("1 minute"), minutes - 1)
      const phase = () =>
        Effect.map(
          request("GET", `/v1/clusters/${created.id}?organization=default`, token),
          (reply) => cluster(reply).status.phase
        )
      yield* minuteByMinute(10)
      // Another node of the control plane served a request now, and recorded it there.
      const repo = Context.get(server.context, ClustersRepo)
      yield* repo.recordActivity(ClusterId.make(created.id), yield* Clock.currentTimeMillis)
      // 20 minutes without a request here, 10 since the one elsewhere: still running.
      yield* minuteByMinute(10)
      expect(yield* phase()).toBe("ready")
      yield* minuteByMinute(6)
      expect((yield* awaitPhase(token, created.id, "paused")).status.phase).toBe("paused")
    })
  )
})
