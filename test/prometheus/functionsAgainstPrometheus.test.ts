/**
 * The newer functions beside the real Prometheus 2.42 where it has them: the same samples
 * remote-written to both, then `holt_winters` there against `double_exponential_smoothing`
 * (its Prometheus 3 name) here, `sort`/`sort_desc` orders, and date functions of values
 * JavaScript's Date reads otherwise. Skips without Prometheus.
 */
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { besidePrometheus } from "../support/besidePrometheus.js"
import { askApi as ask, hasPrometheus } from "../support/prometheus.js"
import { remoteWriteBody } from "../support/remoteWrite.js"
import { freshDataDir, TestServer } from "../support/server.js"

const ADMIN = "compare-admin@example.com"
const PASSWORD = "compare admin password"
const T0 = 1_700_000_000_000

// Two series with a trend, a dip and a reset, one sample every 15 s for 10 minutes.
const series = ["a", "b"].map((name, k) => ({
  labels: { __name__: "hw", name },
  samples: Array.from({ length: 40 }, (_, i) => [
    T0 + i * 15_000,
    k === 0 ? i * 3 + (i % 5 === 0 ? -7 : 0) : 100 - i * 1.5 + (i % 7) * 0.25
  ]) as Array<readonly [number, number]>
}))

layer(
  TestServer.layer(freshDataDir("metrics-fn-compare"), {
    SLUICE_ADMIN_EMAIL: ADMIN,
    SLUICE_ADMIN_PASSWORD: PASSWORD
  }),
  { excludeTestServices: true, timeout: 180_000 }
)("Prometheus 3 functions beside Prometheus 2.42", (it) => {
  it.scoped.skipIf(!hasPrometheus)(
    "double_exponential_smoothing answers holt_winters's values; sort orders and date parts match",
    () =>
      Effect.gen(function* () {
        const { reference, sluice, token, writeReference, writeSluice } = yield* besidePrometheus(
          ADMIN,
          PASSWORD
        )
        const body = remoteWriteBody(series)
        expect(yield* writeReference(body)).toBe(204)
        expect(yield* writeSluice(body)).toBe(204)

        const range = { start: String(T0 / 1000 + 120), end: String(T0 / 1000 + 600), step: "37" }
        for (const [sf, tf] of [
          ["0.5", "0.5"],
          ["0.1", "0.9"],
          ["0.8", "0.2"]
        ]) {
          const theirs = yield* ask(reference, "query_range", {
            query: `holt_winters(hw[3m], ${sf}, ${tf})`,
            ...range
          })
          const ours = yield* ask(
            sluice,
            "query_range",
            { query: `double_exponential_smoothing(hw[3m], ${sf}, ${tf})`, ...range },
            token
          )
          expect(theirs.data.result.length).toBe(2)
          expect(ours.data).toEqual(theirs.data)
        }
        // Date parts as Go reads a value: a fraction cut toward zero, NaN, ±Inf and 1e19 past
        // int64, years before 100 and past JavaScript's Date range.
        for (const query of [
          "hour(vector(-0.5))",
          "minute(vector(-61.5))",
          "year(vector(1e16))",
          "day_of_week(vector(NaN))",
          "month(vector(-Inf))",
          "day_of_month(vector(Inf))",
          "hour(vector(1e19))",
          "minute(vector(-1e19))",
          "day_of_year(vector(-62135596800))",
          "year(vector(-61000000000))",
          "days_in_month(vector(951782400))",
          "days_in_month(vector(-59011459200))"
        ]) {
          const params = { query, time: String(T0 / 1000) }
          const theirs = yield* ask(reference, "query", params)
          const ours = yield* ask(sluice, "query", params, token)
          expect(ours.data, query).toEqual(theirs.data)
        }
        for (const fn of ["sort", "sort_desc"]) {
          const params = { query: `${fn}(hw)`, time: String(T0 / 1000 + 300) }
          const theirs = yield* ask(reference, "query", params)
          const ours = yield* ask(sluice, "query", params, token)
          expect(ours.data).toEqual(theirs.data)
        }
      })
  )
})
