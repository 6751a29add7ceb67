/**
 * A range query whose step is longer than its windows reads only the samples some
 * step's window holds, and answers as when it read them all: the same queries at a
 * step no longer than their windows (every sample read) give the expected values at the
 * shared steps. Steps at fractional seconds, as Grafana sends them.
 */
import { expect, layer } from "@effect/vitest"
import { Effect, Schema } from "effect"
import { installApp } from "../support/client.js"
import { METRICS_BASE, writeSeries } from "../support/metricsApp.js"
import { STALE_MARKER } from "../support/remoteWrite.js"
import { adminKeyOf, bodyOf, call, freshDataDir, TestServer } from "../support/server.js"

const ADMIN = "step-windows@example.com"
const PASSWORD = "step windows password"
const T0 = 1_700_000_000_000
const HOUR = 3_600_000
const q = encodeURIComponent

const Matrix = Schema.Struct({
  status: Schema.Literal("success"),
  data: Schema.Struct({
    result: Schema.Array(
      Schema.Struct({
        metric: Schema.Record({ key: Schema.String, value: Schema.String }),
        values: Schema.Array(Schema.Tuple(Schema.Number, Schema.String))
      })
    ),
    explain: Schema.optional(Schema.Array(Schema.Struct({ sql: Schema.Array(Schema.String) })))
  })
})

// A counter every 15 s for 6 h with a reset, and a gauge that goes stale for 20 minutes.
const counter = Array.from({ length: (6 * HOUR) / 15_000 }, (_, i) => {
  const value = i < 700 ? i * 3 : (i - 700) * 2
  return [T0 + i * 15_000 + 137, value] as const
})
const gauge = counter.flatMap(([t], i): Array<readonly [number, number | bigint]> =>
  i === 500 ? [[t, STALE_MARKER] as const] : i > 500 && i < 580 ? [] : [[t, (i * 7) % 11] as const]
)

const QUERIES = [
  "rate(sw_total[1m])",
  "max_over_time(sw_gauge[2m])",
  "sw_gauge",
  "sum(increase(sw_total[90s]))"
]

const ask = (query: string, step: number, explain = false) =>
  Effect.gen(function* () {
    const server = yield* TestServer
    const reply = yield* call(
      server,
      "GET",
      `${METRICS_BASE}/query_range?query=${q(query)}&start=${(T0 + HOUR) / 1000 + 0.123}` +
        `&end=${(T0 + 6 * HOUR) / 1000 + 0.123}&step=${step}${explain ? "&explain=true" : ""}`,
      { token: adminKeyOf(server) }
    )
    expect(reply.status, reply.text).toBe(200)
    return bodyOf(Matrix, reply).data
  })

layer(
  TestServer.layer(freshDataDir("metrics-step-windows"), {
    SLUICE_ADMIN_EMAIL: ADMIN,
    SLUICE_ADMIN_PASSWORD: PASSWORD
  }),
  { excludeTestServices: true, timeout: 120_000 }
)("PromQL range queries with gaps between windows", (it) => {
  it.effect("read only the windows' samples and answer as with every sample read", () =>
    Effect.gen(function* () {
      const server = yield* TestServer
      yield* installApp(server, "metrics-app", ADMIN, PASSWORD)
      const written = yield* writeSeries(server, [
        { labels: { __name__: "sw_total", job: "a" }, samples: counter },
        { labels: { __name__: "sw_gauge", job: "a" }, samples: gauge }
      ])
      expect(written.status, written.text).toBe(204)
      // The hourly steps first, so no read kept from the finer ones serves them.
      const hourly = yield* Effect.forEach(QUERIES, (query) => ask(query, 3600))
      const fine = yield* Effect.forEach(QUERIES, (query) => ask(query, 60))
      QUERIES.forEach((query, n) => {
        const expected = fine[n]!.result.map((s) => ({
          metric: s.metric,
          values: s.values.filter(([t]) => Math.round((t - 0.123) * 1000 - T0) % HOUR === 0)
        }))
        expect(hourly[n]!.result, query).toEqual(expected)
        expect(expected[0]!.values.length, query).toBeGreaterThanOrEqual(4)
      })
      const explained = yield* ask("rate(sw_total[1m])", 3600, true)
      expect(explained.explain![0]!.sql[0]).toContain("positiveModulo")
      const everySample = yield* ask("rate(sw_total[1m])", 60, true)
      expect(everySample.explain![0]!.sql[0]).not.toContain("positiveModulo")
    })
  )
})
