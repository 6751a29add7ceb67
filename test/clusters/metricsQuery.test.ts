/**
 * Reading cluster metrics over a window: the spec's series shape for every metric, the
 * `metrics` selection, bucketing of long windows, and each refused request with its hint.
 */
import { describe, expect, it, layer } from "@effect/vitest"
import { Effect, Either, Option, ParseResult, Schema, TestClock, TestContext } from "effect"
import { ClusterMetrics } from "../../domain/api/ClusterModels.js"
import type { ClusterId } from "../../domain/Ids.js"
import { MetricsParams } from "../../domain/api/ClustersApi.js"
import { ClusterUsage } from "../../domain/ClusterUsage.js"
import { BadRequest } from "../../domain/Errors.js"
import { ClusterMetricsQuery } from "../../src/clusters/usage/ClusterMetricsQuery.js"
import { parseMetricsParam } from "../../src/clusters/usage/MetricSelection.js"
import { MetricsStore } from "../../src/clusters/usage/MetricsStore.js"
import { createCluster, metricsLayer, reading } from "./metricsFixture.js"

const DAY = 86_400_000
const NOW = Date.parse("2026-03-01T12:00:00Z")
const at = (offsetMs: number) => new Date(NOW - DAY + offsetMs)
const iso = (offsetMs: number) => at(offsetMs).toISOString()

const series = (
  cluster: ClusterId,
  start: Date,
  end: Date,
  names: Option.Option<ReadonlyArray<string>> = Option.none()
) => Effect.flatMap(ClusterMetricsQuery, (query) => query.series(cluster, { start, end }, names))

/** A cluster with two replicas sampled at minutes 0, 1 and 2 of the day before NOW. */
const sampledCluster = Effect.gen(function* () {
  const cluster = yield* createCluster("ready")
  const store = yield* MetricsStore
  const rounds = [
    {
      r1: { read: 10, write: 1, cpu: 0.5, memory: 1e9 },
      r2: { read: 2, write: 0, cpu: 2, memory: 5e8 }
    },
    {
      r1: { read: 30, write: 4, cpu: 1.25, memory: 2e9 },
      r2: { read: 3, write: 5, cpu: 1, memory: 6e8 }
    },
    {
      r1: { read: 31, write: 4, cpu: 0.75, memory: 3e9 },
      r2: { read: 9, write: 5, cpu: 3, memory: 4e8 }
    }
  ]
  for (const [i, round] of rounds.entries())
    yield* store.record(cluster, at(i * 60_000), [
      reading("replica-1", round.r1),
      reading("replica-2", round.r2)
    ])
  return cluster
})

const refused = (effect: Effect.Effect<unknown, BadRequest, ClusterMetricsQuery>) =>
  Effect.flip(effect).pipe(Effect.tap((error) => expect(error).toBeInstanceOf(BadRequest)))

layer(metricsLayer(), { excludeTestServices: true, timeout: 120_000 })("metrics query", (it) => {
  const atNow = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
    TestClock.setTime(NOW).pipe(Effect.zipRight(effect), Effect.provide(TestContext.TestContext))

  it.effect("answers every metric in the spec's series shape", () =>
    atNow(
      Effect.gen(function* () {
        const cluster = yield* sampledCluster
        const all = yield* series(cluster, at(0), at(3_600_000))
        expect(all.map((s) => [s.name, s.unit, s.aggregation, s.scope])).toEqual([
          ["total_read_queries", "queries", "sum", "cluster"],
          ["total_write_queries", "queries", "sum", "cluster"],
          ["max_cpu_cores", "cores", "max", "replica"],
          ["max_memory_bytes", "bytes", "max", "replica"]
        ])
        for (const s of all) {
          expect(s.label).not.toBe("")
          expect(s.description).not.toBe("")
          expect(s.source).not.toBe("")
        }
        const [reads, writes, cpu, memory] = all
        // Per-interval deltas of the counters, summed over both replicas; no replica field.
        expect(reads?.points).toEqual([
          { time: iso(0), value: 12 },
          { time: iso(60_000), value: 21 },
          { time: iso(120_000), value: 7 }
        ])
        expect(Object.keys(reads?.points[0] ?? {})).toEqual(["time", "value"])
        expect(writes?.points.map((p) => p.value)).toEqual([1, 8, 0])
        expect(cpu?.points).toEqual([
          { time: iso(0), value: 0.5, replica: "replica-1" },
          { time: iso(0), value: 2, replica: "replica-2" },
          { time: iso(60_000), value: 1.25, replica: "replica-1" },
          { time: iso(60_000), value: 1, replica: "replica-2" },
          { time: iso(120_000), value: 0.75, replica: "replica-1" },
          { time: iso(120_000), value: 3, replica: "replica-2" }
        ])
        expect(memory?.points.filter((p) => p.replica === "replica-1").map((p) => p.value)).toEqual(
          [1e9, 2e9, 3e9]
        )
        // The window bounds are inclusive and nothing outside them shows.
        const inner = yield* series(cluster, at(60_000), at(60_000), Option.some(["max_cpu_cores"]))
        expect(inner.flatMap((s) => s.points.map((p) => p.time))).toEqual([
          iso(60_000),
          iso(60_000)
        ])
      })
    )
  )

  it.effect(
    "answers the metrics asked for, in catalog order, and nothing for an empty window",
    () =>
      atNow(
        Effect.gen(function* () {
          const cluster = yield* sampledCluster
          const names = parseMetricsParam("max_memory_bytes, total_write_queries,")
          const some = yield* series(cluster, at(0), at(3_600_000), names)
          expect(some.map((s) => s.name)).toEqual(["total_write_queries", "max_memory_bytes"])
          const quiet = yield* series(cluster, at(DAY / 2), at(DAY))
          expect(quiet.map((s) => s.points)).toEqual([[], [], [], []])
        })
      )
  )

  it.effect("merges samples into round buckets when a window is long", () =>
    atNow(
      Effect.gen(function* () {
        const cluster = yield* sampledCluster
        // 20 hours at one sample a minute is 1200 points: 5-minute buckets keep it under 500.
        const all = yield* series(cluster, at(0), at(20 * 3_600_000))
        const [reads, , cpu, memory] = all
        expect(reads?.points).toEqual([{ time: iso(0), value: 40 }])
        expect(cpu?.points).toEqual([
          { time: iso(0), value: 1.25, replica: "replica-1" },
          { time: iso(0), value: 3, replica: "replica-2" }
        ])
        expect(memory?.points.map((p) => p.value)).toEqual([3e9, 6e8])
      })
    )
  )

  it.effect("refuses unknown metric names, an empty list, reversed and expired windows", () =>
    atNow(
      Effect.gen(function* () {
        const cluster = yield* createCluster("ready")
        const known = "total_read_queries, total_write_queries, max_cpu_cores, max_memory_bytes"

        const unknown = yield* refused(
          series(cluster, at(0), at(1), Option.some(["max_cpu_cores", "disk_bytes"]))
        )
        expect(unknown.message).toContain('"disk_bytes"')
        expect(unknown.hint).toContain(known)

        const empty = yield* refused(series(cluster, at(0), at(1), parseMetricsParam(" , ")))
        expect(empty.hint).toContain(known)

        const reversed = yield* refused(series(cluster, at(1), at(0)))
        expect(reversed.message).toContain("end_time is before start_time")

        const oldest = new Date(NOW - 30 * DAY)
        const expired = yield* refused(
          series(cluster, new Date(oldest.getTime() - 1), new Date(NOW))
        )
        expect(expired.message).toContain("30-day")
        expect(expired.hint).toContain(oldest.toISOString())
        // Exactly the retention is still answered.
        expect(yield* series(cluster, oldest, new Date(NOW))).toHaveLength(4)
      })
    )
  )

  it.effect("answers the endpoint's url parameters with the cluster and its series", () =>
    atNow(
      Effect.gen(function* () {
        const cluster = yield* sampledCluster
        const params = yield* decodeMetricsParams({
          organization: "acme",
          start_time: iso(0).replace("T", " ").replace("Z", "+00:00"),
          end_time: iso(60_000),
          metrics: "total_read_queries"
        })
        const response = yield* (yield* ClusterUsage).metrics(
          { id: cluster, name: "metrics" },
          params
        )
        expect(Schema.encodeSync(ClusterMetrics)(response)).toEqual({
          cluster: { id: cluster, name: "metrics" },
          metrics: [
            expect.objectContaining({
              name: "total_read_queries",
              points: [
                { time: iso(0), value: 12 },
                { time: iso(60_000), value: 21 }
              ]
            })
          ]
        })
      })
    )
  )
})

const decodeMetricsParams = (params: Record<string, string>) =>
  Effect.orDie(Schema.decodeUnknown(MetricsParams)(params))

describe("metrics url parameters", () => {
  it("take ISO 8601 times and refuse anything else with a message saying so", () => {
    const decode = Schema.decodeUnknownEither(MetricsParams)
    for (const good of ["2026-03-01", "2026-03-01T12:00:00Z", "2026-03-01 12:00:00.5+02:00"])
      expect(Either.isRight(decode({ organization: "o", start_time: good, end_time: good }))).toBe(
        true
      )
    for (const bad of ["yesterday", "1", "1700000000", "2026-13-45T00:00:00Z"]) {
      const result = decode({ organization: "o", start_time: bad, end_time: "2026-03-01" })
      expect(Either.isLeft(result)).toBe(true)
      if (Either.isLeft(result)) {
        const issues = ParseResult.ArrayFormatter.formatErrorSync(result.left)
        expect(issues[0]?.path).toEqual(["start_time"])
      }
    }
  })
})
