/**
 * `explain=true` on `query` and `query_range`: the SQL each selector compiles to, over
 * the window its steps read, and nothing run (the answer holds no sample although the
 * series has some).
 */
import { expect, layer } from "@effect/vitest"
import { Effect, Schema } from "effect"
import { installApp } from "../support/client.js"
import { METRICS_BASE, writeSeries } from "../support/metricsApp.js"
import { adminKeyOf, bodyOf, call, freshDataDir, TestServer } from "../support/server.js"
import { PromError } from "../support/prometheusReplies.js"

const ADMIN = "explain-admin@example.com"
const PASSWORD = "explain admin password"
const T0 = 1_700_000_000_000
const q = encodeURIComponent

const Explained = Schema.Struct({
  status: Schema.Literal("success"),
  data: Schema.Struct({
    resultType: Schema.String,
    result: Schema.Array(Schema.Unknown),
    explain: Schema.Array(
      Schema.Struct({
        node: Schema.String,
        from: Schema.Number,
        to: Schema.Number,
        sql: Schema.Array(Schema.String)
      })
    )
  })
})

const get = (path: string) =>
  Effect.flatMap(TestServer, (server) =>
    call(server, "GET", `${METRICS_BASE}${path}`, { token: adminKeyOf(server) })
  )

layer(
  TestServer.layer(freshDataDir("metrics-explain"), {
    SLUICE_ADMIN_EMAIL: ADMIN,
    SLUICE_ADMIN_PASSWORD: PASSWORD
  }),
  { excludeTestServices: true, timeout: 120_000 }
)("PromQL explain", (it) => {
  it.effect("an instant query lists each selector's statements and window, and reads nothing", () =>
    Effect.gen(function* () {
      const server = yield* TestServer
      yield* installApp(server, "metrics-app", ADMIN, PASSWORD)
      const written = yield* writeSeries(server, [
        { labels: { __name__: "ex_total", job: "a" }, samples: [[T0, 1]] },
        { labels: { __name__: "ex_gauge", job: "a" }, samples: [[T0, 2]] }
      ])
      expect(written.status, written.text).toBe(204)
      // Without explain the query answers a sample: 2 at T0 + 10 s (lookback 5 m).
      const plain = yield* get(`/query?query=ex_gauge&time=${(T0 + 10_000) / 1000}`)
      expect(plain.text).toContain('"2"')

      const reply = yield* get(
        `/query?query=${q('rate(ex_total{job="a"}[1m]) + (ex_gauge offset 5m)')}` +
          `&time=${(T0 + 10_000) / 1000}&explain=true`
      )
      expect(reply.status, reply.text).toBe(200)
      const { data } = bodyOf(Explained, reply)
      expect(data.resultType).toBe("vector")
      expect(data.result).toEqual([])
      // rate's window is (t - 1 m, t]; the offset selector's lookback is (t - 5 m - 5 m, t - 5 m].
      expect(data.explain.map(({ node, from, to }) => ({ node, from, to }))).toEqual([
        { node: 'ex_total{job="a"}', from: T0 + 10_000 - 60_000, to: T0 + 10_000 },
        { node: "ex_gauge", from: T0 + 10_000 - 600_000, to: T0 + 10_000 - 300_000 }
      ])
      const [rate, gauge] = data.explain
      // One statement a selector: the series it selects and their samples in the window.
      expect(rate!.sql).toHaveLength(1)
      expect(rate!.sql[0]).toContain("metric_name = 'ex_total'")
      expect(rate!.sql[0]).toContain("labels['job'] = 'a'")
      expect(rate!.sql[0]).toContain("FROM `prometheus_samples`")
      expect(gauge!.sql[0]).toContain(String(T0 + 10_000 - 300_000))
    })
  )

  it.effect("a range query's selector spans from the first step's lookback to the last step", () =>
    Effect.gen(function* () {
      const reply = yield* get(
        `/query_range?query=${q("sum(ex_gauge)")}&start=${T0 / 1000}` +
          `&end=${(T0 + 60_000) / 1000}&step=30s&explain=true`
      )
      expect(reply.status, reply.text).toBe(200)
      const { data } = bodyOf(Explained, reply)
      expect(data.resultType).toBe("matrix")
      expect(data.result).toEqual([])
      expect(data.explain.map(({ node, from, to }) => ({ node, from, to }))).toEqual([
        { node: "ex_gauge", from: T0 - 300_000, to: T0 + 60_000 }
      ])
      // A number has no selector: nothing to explain.
      const scalar = yield* get(`/query?query=1%2B1&time=10&explain=true`)
      expect(bodyOf(Explained, scalar).data).toEqual({
        resultType: "scalar",
        result: [10, "2"],
        explain: []
      })
    })
  )

  it.effect("explain of a bad query is Prometheus's bad_data", () =>
    Effect.gen(function* () {
      const syntax = yield* get(`/query?query=${q("rate(ex_total[1m]")}&time=10&explain=true`)
      expect(syntax.status).toBe(400)
      expect(bodyOf(PromError, syntax).errorType).toBe("bad_data")
      const limit = yield* get(`/query_range?query=ex_gauge&start=0&end=11001&step=1&explain=true`)
      expect(limit.status).toBe(400)
      expect(bodyOf(PromError, limit).errorType).toBe("bad_data")
    })
  )
})
