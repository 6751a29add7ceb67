/**
 * PromQL queries written to exhaust the server: each is answered as Prometheus 2.42 answers
 * it (its default `query.max-samples`, 50,000,000) and none holds the event loop, so
 * `/health` keeps answering while a long evaluation runs.
 */
import { expect, layer } from "@effect/vitest"
import { Effect, Fiber, Option } from "effect"
import { installApp } from "../support/client.js"
import { METRICS_BASE, writeSeries } from "../support/metricsApp.js"
import { PromError, Vector } from "../support/prometheusReplies.js"
import { adminKeyOf, bodyOf, call, freshDataDir, TestServer } from "../support/server.js"

const ADMIN = "hostile-promql@example.com"
const PASSWORD = "hostile promql password"
const T0 = 1_700_000_000_000
const TOO_MANY = "query processing would load too many samples into memory in query execution"

const instant = (query: string) =>
  Effect.flatMap(TestServer, (server) =>
    call(
      server,
      "GET",
      `${METRICS_BASE}/query?query=${encodeURIComponent(query)}&time=${T0 / 1000}`,
      { token: adminKeyOf(server) }
    )
  )

layer(
  TestServer.layer(freshDataDir("metrics-hostile"), {
    SLUICE_ADMIN_EMAIL: ADMIN,
    SLUICE_ADMIN_PASSWORD: PASSWORD
  }),
  { excludeTestServices: true, timeout: 180_000 }
)("hostile PromQL", (it) => {
  it.effect("subqueries past the sample limit get Prometheus's error, at once", () =>
    Effect.gen(function* () {
      const server = yield* TestServer
      yield* installApp(server, "metrics-app", ADMIN, PASSWORD)
      const written = yield* writeSeries(server, [
        { labels: { __name__: "up", job: "a" }, samples: [[T0 - 10_000, 1]] }
      ])
      expect(written.status, written.text).toBe(204)
      // 3.2e11 steps (once aborted the process), and 31,536,000 steps of one series.
      for (const query of ["max_over_time(up[10y:1ms])", "count_over_time(vector(1)[1y:1s])"]) {
        const reply = yield* instant(query)
        expect(reply.status, reply.text).toBe(422)
        expect(bodyOf(PromError, reply)).toEqual({
          status: "error",
          errorType: "execution",
          error: TOO_MANY
        })
      }
    })
  )

  it.effect("a long evaluation answers, and /health keeps answering meanwhile", () =>
    Effect.gen(function* () {
      const server = yield* TestServer
      yield* installApp(server, "metrics-app", ADMIN, PASSWORD)
      // 8,640,000 steps: seconds of work, within Prometheus's limit (it answers 1).
      const query = yield* Effect.fork(instant("max_over_time(vector(1)[1d:10ms])"))
      // /health asked again and again while the query is unanswered: an evaluation that
      // held the event loop would let one through only once it ended. How long each waits
      // is the benchmark's to measure, not a test's on a busy machine.
      let answered = 0
      while (Option.isNone(yield* Fiber.poll(query))) {
        const health = yield* call(server, "GET", "/health")
        expect(health.status).toBe(200)
        answered++
      }
      const reply = yield* Fiber.join(query)
      expect(reply.status, reply.text).toBe(200)
      expect(bodyOf(Vector, reply).data.result).toEqual([{ metric: {}, value: [T0 / 1000, "1"] }])
      expect(answered).toBeGreaterThanOrEqual(5)
    })
  )

  it.effect("a query's own timeout stops a long evaluation with Prometheus's timeout error", () =>
    Effect.gen(function* () {
      const server = yield* TestServer
      yield* installApp(server, "metrics-app", ADMIN, PASSWORD)
      // The evaluation above (seconds of work) against a tenth of a second.
      const query = encodeURIComponent("max_over_time(vector(1)[1d:10ms])")
      const reply = yield* call(
        server,
        "GET",
        `${METRICS_BASE}/query?query=${query}&time=${T0 / 1000}&timeout=100ms`,
        { token: adminKeyOf(server) }
      )
      expect(reply.status, reply.text).toBe(503)
      expect(bodyOf(PromError, reply)).toEqual({
        status: "error",
        errorType: "timeout",
        error: "query timed out in expression evaluation"
      })
    })
  )

  it.effect("caller-given regular expressions match in linear time (RE2), as Prometheus's", () =>
    Effect.gen(function* () {
      const server = yield* TestServer
      yield* installApp(server, "metrics-app", ADMIN, PASSWORD)
      // (a|a)+b backtracks 2^n times over n a's in JavaScript's RegExp: 5 s at n = 26.
      const many = "a".repeat(40)
      const written = yield* writeSeries(server, [
        { labels: { __name__: "redos", v: many }, samples: [[T0 - 10_000, 1]] },
        { labels: { __name__: "redos", v: "aab" }, samples: [[T0 - 10_000, 2]] },
        { labels: { __name__: many, job: "j" }, samples: [[T0 - 10_000, 3]] }
      ])
      expect(written.status, written.text).toBe(204)

      // Over 40 a's a backtracking match would take days: answering at all is the test.
      const replaced = yield* instant('label_replace(redos, "x", "<$1>", "v", "(a|a)+b")')
      expect(replaced.status, replaced.text).toBe(200)
      expect(
        bodyOf(Vector, replaced)
          .data.result.map((s) => s.metric)
          .sort((a, b) => (a.v! < b.v! ? -1 : 1))
      ).toEqual([
        { __name__: "redos", v: many },
        { __name__: "redos", v: "aab", x: "<a>" }
      ])

      // info() tries its name matchers on each series' name in this process.
      const info = yield* instant(`info(${many}, {__name__=~"(a|a)+b"})`)
      expect(info.status, info.text).toBe(200)
      expect(bodyOf(Vector, info).data.result).toEqual([
        { metric: { __name__: many, job: "j" }, value: [T0 / 1000, "3"] }
      ])

      // RE2 syntax, refused in Go's words at the matcher (compared with Prometheus 2.42).
      for (const [query, error] of [
        [
          'sum(redos{job="x", v=~"(a"})',
          "1:20: parse error: error parsing regexp: missing closing ): `^(?:(a)$`"
        ],
        [
          'redos{v!~"a\\\\C"}',
          "1:7: parse error: error parsing regexp: invalid escape sequence: `\\C`"
        ]
      ] as const) {
        const refused = yield* instant(query)
        expect(refused.status, query).toBe(400)
        expect(bodyOf(PromError, refused).error).toBe(`invalid parameter "query": ${error}`)
      }
      const badReplace = yield* instant('label_replace(redos, "x", "", "v", "(a")')
      expect(bodyOf(PromError, badReplace)).toEqual({
        status: "error",
        errorType: "execution",
        error: "invalid regular expression in label_replace(): (a"
      })
    })
  )
})
