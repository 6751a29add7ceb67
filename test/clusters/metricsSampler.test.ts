/**
 * The metrics sampler: its cadence under the `TestClock`, per-interval query counts from
 * the engines' cumulative counters (restarts included), a failing engine that does not
 * stop the others or later rounds, and retention. Samples land in the real control plane
 * and are read back through `ClusterMetricsQuery`, as the metrics endpoint does.
 */
import { describe, expect, it, layer } from "@effect/vitest"
import { Clock, ConfigProvider, Effect, Fiber, Option, TestClock, TestContext } from "effect"
import type { ClusterId } from "../../domain/Ids.js"
import { ClusterMetricsQuery } from "../../src/clusters/usage/ClusterMetricsQuery.js"
import { everyInterval, sampleOnce } from "../../src/clusters/usage/MetricsSampler.js"
import { MetricsStore } from "../../src/clusters/usage/MetricsStore.js"
import { sluiceConfig } from "../../src/config/SluiceConfig.js"
import {
  createCluster,
  eventually,
  metricsLayer,
  reading,
  sampled,
  sampleTimes,
  script
} from "./metricsFixture.js"

const minute = (n: number) => new Date(n * 60_000).toISOString()

const seriesOf = (cluster: ClusterId, start: Date, end: Date) =>
  Effect.flatMap(ClusterMetricsQuery, (query) =>
    query.series(cluster, { start, end }, Option.none())
  ).pipe(
    Effect.orDie,
    Effect.map((all) => Object.fromEntries(all.map((series) => [series.name, series.points])))
  )

describe("metrics sampling cadence", () => {
  it.effect(
    "runs a round once per interval from one interval after start; failures do not stop it",
    () =>
      Effect.gen(function* () {
        const rounds: Array<number> = []
        const round = Effect.flatMap(Clock.currentTimeMillis, (now) => {
          rounds.push(now)
          return rounds.length === 2 ? Effect.die("control plane unavailable") : Effect.void
        })
        const fiber = yield* Effect.fork(everyInterval(round, 60))
        yield* TestClock.adjust("59 seconds")
        expect(rounds).toEqual([])
        yield* TestClock.adjust("1 second")
        expect(rounds).toEqual([60_000])
        for (let i = 0; i < 3; i++) yield* TestClock.adjust("60 seconds")
        expect(rounds).toEqual([60_000, 120_000, 180_000, 240_000])
        yield* Fiber.interrupt(fiber)
      })
  )
})

layer(metricsLayer(), { excludeTestServices: true, timeout: 120_000 })("metrics sampler", (it) => {
  it.effect(
    "samples running clusters only; deltas survive an engine restart and a failing engine",
    () =>
      Effect.gen(function* () {
        const a = yield* createCluster("ready")
        const b = yield* createCluster("ready")
        const paused = yield* createCluster("paused")
        script.set(a, [
          Effect.succeed([
            reading("replica-1", { read: 10, write: 2, cpu: 0.5, memory: 100 }),
            reading("replica-2", { read: 4, write: 1, cpu: 0.25, memory: 80 })
          ]),
          Effect.succeed([
            reading("replica-1", { read: 25, write: 2, cpu: 1.5, memory: 120 }),
            reading("replica-2", { read: 5, write: 4, cpu: 0.75, memory: 90 })
          ]),
          // replica-1's engine restarted: its counters start again from zero.
          Effect.succeed([
            reading("replica-1", { read: 3, write: 0, cpu: 0.1, memory: 50 }),
            reading("replica-2", { read: 9, write: 4, cpu: 0.5, memory: 95 })
          ])
        ])
        script.set(b, [
          Effect.die("engine process gone"),
          Effect.succeed([reading("replica-1", { read: 7, write: 7, cpu: 1, memory: 10 })])
        ])
        // Rounds at minutes 1, 2 and 3, as the loop runs them.
        for (const round of [1, 2, 3]) {
          yield* TestClock.setTime(round * 60_000)
          yield* sampleOnce({ intervalSeconds: 60, retentionDays: 30 })
        }

        expect(yield* sampleTimes(a)).toEqual([minute(1), minute(2), minute(3)])
        // b's first reading failed; its second round still ran and was stored.
        expect(yield* sampleTimes(b)).toEqual([minute(2)])
        expect(sampled.filter((id) => id === paused)).toEqual([])

        const series = yield* seriesOf(a, new Date(0), new Date(600_000))
        expect(series.total_read_queries).toEqual([
          { time: minute(1), value: 14 },
          { time: minute(2), value: 16 },
          { time: minute(3), value: 7 }
        ])
        expect(series.total_write_queries?.map((point) => point.value)).toEqual([3, 3, 0])
        expect(series.max_cpu_cores).toEqual([
          { time: minute(1), value: 0.5, replica: "replica-1" },
          { time: minute(1), value: 0.25, replica: "replica-2" },
          { time: minute(2), value: 1.5, replica: "replica-1" },
          { time: minute(2), value: 0.75, replica: "replica-2" },
          { time: minute(3), value: 0.1, replica: "replica-1" },
          { time: minute(3), value: 0.5, replica: "replica-2" }
        ])
        expect(series.max_memory_bytes?.map((point) => point.value)).toEqual([
          100, 80, 120, 90, 50, 95
        ])
        // A first reading after a gap counts from b's previous stored total: none here.
        expect((yield* seriesOf(b, new Date(0), new Date(600_000))).total_read_queries).toEqual([
          { time: minute(2), value: 7 }
        ])
      }).pipe(Effect.provide(TestContext.TestContext))
  )

  it.effect("gives up on an engine that does not answer within an interval", () =>
    Effect.gen(function* () {
      const stuck = yield* createCluster("ready")
      const fine = yield* createCluster("ready")
      script.set(stuck, [Effect.never])
      script.set(fine, [
        Effect.succeed([reading("replica-1", { read: 1, write: 1, cpu: 1, memory: 1 })])
      ])
      yield* TestClock.setTime(3_600_000)
      const round = yield* Effect.fork(sampleOnce({ intervalSeconds: 60, retentionDays: 30 }))
      // Time passes until the round is over; it must end, without the stuck engine.
      yield* eventually(
        TestClock.adjust("60 seconds").pipe(
          Effect.zipRight(Fiber.poll(round)),
          Effect.map(Option.isSome)
        )
      )
      expect(sampled).toContain(stuck)
      expect(yield* sampleTimes(stuck)).toEqual([])
      expect(yield* sampleTimes(fine)).toEqual([new Date(3_600_000).toISOString()])
    }).pipe(Effect.provide(TestContext.TestContext))
  )

  // Last in this file: pruning removes old samples of every cluster.
  it.effect("deletes samples older than the retention and keeps the rest", () =>
    Effect.gen(function* () {
      const cluster = yield* createCluster("ready")
      const store = yield* MetricsStore
      const day = 86_400_000
      const old = reading("replica-1", { read: 1, write: 1, cpu: 1, memory: 1 })
      yield* store.record(cluster, new Date(1 * day), [old])
      yield* store.record(cluster, new Date(3 * day), [old])
      yield* TestClock.setTime(5 * day)
      script.set(cluster, [Effect.succeed([old])])
      yield* sampleOnce({ intervalSeconds: 60, retentionDays: 3 })
      expect(yield* sampleTimes(cluster)).toEqual([
        new Date(3 * day).toISOString(),
        new Date(5 * day).toISOString()
      ])
    }).pipe(Effect.provide(TestContext.TestContext))
  )
})

describe("metrics settings", () => {
  const configWith = (env: Record<string, string>) =>
    Effect.withConfigProvider(sluiceConfig, ConfigProvider.fromMap(new Map(Object.entries(env))))

  it.effect("interval defaults to 60 s and retention to 30 days; both positive integers", () =>
    Effect.gen(function* () {
      const defaults = yield* configWith({})
      expect([defaults.metricsIntervalSeconds, defaults.metricsRetentionDays]).toEqual([60, 30])
      const set = yield* configWith({
        SLUICE_METRICS_INTERVAL_SECONDS: "15",
        SLUICE_METRICS_RETENTION_DAYS: "7"
      })
      expect([set.metricsIntervalSeconds, set.metricsRetentionDays]).toEqual([15, 7])
      for (const name of ["SLUICE_METRICS_INTERVAL_SECONDS", "SLUICE_METRICS_RETENTION_DAYS"])
        for (const bad of ["0", "-1", "often"]) {
          const error = yield* Effect.flip(configWith({ [name]: bad }))
          expect(String(error)).toContain(name)
        }
    })
  )
})
