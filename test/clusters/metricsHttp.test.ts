/**
 * Cluster metrics over HTTP with a real sampler (every second, real time): queries and
 * inserts on a new cluster show up as read and write counts, the series have the spec's
 * shape, `metrics=` selects, and the by-name form answers the same series.
 */
import { expect, layer } from "@effect/vitest"
import { DateTime, Effect, Schema } from "effect"
import { ClusterMetrics } from "../../domain/api/ClusterModels.js"
import { ClusterId } from "../../domain/Ids.js"
import { eventually } from "../support/eventually.js"
import { TestServer, freshDataDir } from "../support/server.js"
import { poll, rowsOf, send } from "./securitySupport.js"
import { adminEnv, adminSession, awaitPhase, clientWith, createCluster, keyOf } from "./support.js"

const ALL = ["total_read_queries", "total_write_queries", "max_cpu_cores", "max_memory_bytes"]

const windowOf = (start: Date, end: Date) =>
  `start_time=${start.toISOString()}&end_time=${end.toISOString()}`

/**
 * Metrics as sent: the raw reply decoded with the contract's schema, refusing any key the
 * schema does not name, so that the key sets asserted below are the wire's own.
 */
const metricsOf = (token: string, path: string) =>
  Effect.map(send(token, "GET", path), (reply) => {
    expect(reply.status, reply.text).toBe(200)
    return Schema.decodeUnknownSync(ClusterMetrics, { onExcessProperty: "error" })(reply.json)
  })

const clustersOf = (token: string) =>
  Effect.flatMap(clientWith(token), (client) =>
    client.clusters.list({ urlParams: { organization: "default" } })
  )

const total = (reply: ClusterMetrics, name: string) =>
  reply.metrics
    .find((series) => series.name === name)!
    .points.reduce((sum, point) => sum + point.value, 0)

layer(TestServer.layer(freshDataDir(), { ...adminEnv, SLUICE_METRICS_INTERVAL_SECONDS: "1" }), {
  excludeTestServices: true,
  timeout: 180_000
})("cluster metrics over HTTP", (it) => {
  it.effect(
    "queries and inserts show up as counts in series of the spec's shape",
    () =>
      Effect.gen(function* () {
        const session = yield* adminSession
        const start = new Date(Date.now() - 1000)
        const created = yield* createCluster(session, "metered")
        yield* awaitPhase(session, created.id, "ready")
        const key = yield* keyOf(session, "metered")
        const byId = (from: Date, to: Date, extra = "") =>
          `/v1/clusters/${created.id}/metrics?organization=default&${windowOf(from, to)}${extra}`

        for (let i = 0; i < 3; i++) {
          const inserted = yield* send(key, "POST", "/v1/tables/visits", {
            body: [{ page: `/p${i}`, ms: i }]
          })
          expect(inserted.json, inserted.text).toEqual({ inserted: 1 })
        }
        for (let i = 0; i < 30; i++)
          expect(yield* rowsOf(key, `SELECT count() AS n, ${i} AS i FROM visits`)).toEqual([
            { n: "3", i }
          ])

        // The service's own probe of an engine may count as a read in every interval
        // (today it does): that per-point floor, seen on the idle `default` cluster over
        // the same window, is taken off before counting ours.
        const listed = yield* clustersOf(session)
        const idle = listed.clusters.find((c) => c.name === "default")!.id
        const counted = Effect.gen(function* () {
          const end = new Date()
          const reply = yield* metricsOf(session, byId(start, end))
          const idleReads = (yield* metricsOf(
            session,
            `/v1/clusters/${idle}/metrics?organization=default&${windowOf(start, end)}&metrics=total_read_queries`
          )).metrics[0]!.points
          if (idleReads.length === 0) return undefined
          const floor = Math.min(...idleReads.map((point) => point.value))
          const ours = total(reply, "total_read_queries") - floor * reply.metrics[0]!.points.length
          return ours >= 30 && total(reply, "total_write_queries") >= 3 ? reply : undefined
        })
        // Real time: samples arrive each second (later on a loaded machine).
        const first = yield* poll("the counts of what we ran", counted, 90_000)
        expect(first.cluster).toEqual({ id: created.id, name: "metered" })
        expect(first.metrics.map((series) => series.name)).toEqual(ALL)
        for (const series of first.metrics) {
          expect(Object.keys(series).sort()).toEqual([
            "aggregation",
            "description",
            "label",
            "name",
            "points",
            "scope",
            "source",
            "unit"
          ])
          for (const field of ["label", "description", "unit", "aggregation", "source"] as const)
            expect(series[field], `${series.name}.${field}`).toEqual(expect.any(String))
          expect(series.scope).toBe(series.name.startsWith("total_") ? "cluster" : "replica")
          let previous = start.getTime()
          for (const point of series.points) {
            expect(point.time).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/)
            const time = Date.parse(point.time)
            expect(time).toBeGreaterThanOrEqual(previous)
            previous = time
            expect(typeof point.value).toBe("number")
            expect(point.value).toBeGreaterThanOrEqual(0)
            if (series.scope === "replica") {
              expect(Object.keys(point).sort()).toEqual(["replica", "time", "value"])
              expect(point.replica).toEqual(expect.any(String))
            } else expect(Object.keys(point).sort()).toEqual(["time", "value"])
          }
        }
        const memory = first.metrics.find((series) => series.name === "max_memory_bytes")!
        expect(Math.max(...memory.points.map((p) => p.value))).toBeGreaterThan(1024 * 1024)
      }),
    180_000
  )

  it.effect("metrics= selects series, and the by-name form answers the same", () =>
    Effect.gen(function* () {
      const session = yield* adminSession
      const client = yield* clientWith(session)
      const listed = yield* clustersOf(session)
      const { id } = listed.clusters.find((c) => c.name === "metered")!
      // A window that has closed (2 s ago), so both forms read the same stored samples:
      // the first one whose end has a sample (the sampler stores one every second) before it.
      const windowEnding = (end: Date) => ({
        organization: "default",
        start_time: DateTime.unsafeMake(new Date(end.getTime() - 120_000)),
        end_time: DateTime.unsafeMake(end)
      })
      const window = yield* eventually(
        "a stored sample at least 2 s old",
        Effect.suspend(() => {
          const candidate = windowEnding(new Date(Date.now() - 2000))
          return Effect.map(
            client.clusters.metrics({
              path: { cluster_id: ClusterId.make(id) },
              urlParams: { ...candidate, metrics: "max_memory_bytes" }
            }),
            (found) => ((found.metrics[0]?.points.length ?? 0) > 0 ? candidate : undefined)
          )
        })
      )
      const byId = (metrics?: string) =>
        client.clusters.metrics({
          path: { cluster_id: ClusterId.make(id) },
          urlParams: metrics === undefined ? window : { ...window, metrics }
        })
      const byName = (metrics?: string) =>
        client.clusters.metricsByName({
          urlParams:
            metrics === undefined
              ? { ...window, cluster: "metered" }
              : { ...window, cluster: "metered", metrics }
        })

      const one = yield* byId("max_memory_bytes")
      expect(one.metrics.map((series) => series.name)).toEqual(["max_memory_bytes"])
      expect(one.metrics[0]!.points.length).toBeGreaterThan(0)

      const two = yield* byId("total_write_queries, max_cpu_cores")
      expect(two.metrics.map((series) => series.name)).toEqual([
        "total_write_queries",
        "max_cpu_cores"
      ])

      const all = yield* byId()
      const named = yield* byName()
      expect(named).toEqual(all)
      expect(named.cluster).toEqual({ id, name: "metered" })
      expect(named.metrics.map((series) => series.name)).toEqual(ALL)
      const selected = yield* byName("max_memory_bytes")
      expect(selected).toEqual(one)

      // Points lie inside the window asked for.
      for (const series of all.metrics)
        for (const point of series.points) {
          expect(Date.parse(point.time)).toBeGreaterThanOrEqual(window.start_time.epochMillis)
          expect(Date.parse(point.time)).toBeLessThanOrEqual(window.end_time.epochMillis)
        }
    })
  )
})
