/**
 * `count_over_time`, `present_over_time` and `absent_over_time` over reads longer than an
 * hour are counted by the engine when their windows do not overlap (one step, or steps further apart than the range): the answers
 * beside the real Prometheus 2.42 on the same samples, stale markers and a write sent
 * twice among them, and `explain=true` showing the counting statement only where it
 * applies. Skips without Prometheus.
 */
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { besidePrometheus } from "../support/besidePrometheus.js"
import { askApi as ask, hasPrometheus } from "../support/prometheus.js"
import { remoteWriteBody, STALE_MARKER } from "../support/remoteWrite.js"
import type { TestSeries } from "../support/remoteWrite.js"
import { freshDataDir, TestServer } from "../support/server.js"

const ADMIN = "counts-admin@example.com"
const PASSWORD = "counts admin password"
const T0 = 1_700_000_000_000
const MINUTE = 60_000
const HOUR = 60 * MINUTE

/** Every 15 s over four hours, `from` minutes in, where `keep` says so; stale markers at `stale`. */
const samples = (
  keep: (minute: number) => boolean,
  stale: ReadonlyArray<number>
): TestSeries["samples"] => {
  const out: Array<readonly [number, number | bigint]> = []
  for (let t = T0; t < T0 + 4 * HOUR; t += 15_000) {
    const minute = (t - T0) / MINUTE
    if (stale.includes(minute)) out.push([t, STALE_MARKER])
    else if (keep(minute)) out.push([t, minute])
  }
  return out
}

const series: ReadonlyArray<TestSeries> = [
  // All four hours.
  { labels: { __name__: "ec", s: "a" }, samples: samples(() => true, []) },
  // A stale marker at 2 h, silence, and back at 2 h 30.
  {
    labels: { __name__: "ec", s: "b" },
    samples: samples((m) => m < 120 || m >= 150, [120])
  },
  // The first half hour, then a stale marker: later windows hold the marker alone, or nothing.
  { labels: { __name__: "ec", s: "c" }, samples: samples((m) => m < 30, [30]) },
  // Another metric name with the same other labels: count_over_time drops the name.
  { labels: { __name__: "other", s: "d" }, samples: samples((m) => m % 7 === 0, []) }
]

/**
 * Query times 7 s past a sample's: sluice's windows are left-open as Prometheus 3's are
 * (2.42's include a sample on the window's start), so no window starts on a sample here.
 */
const at = (ms: number) => String((ms + 7_000) / 1000)

layer(
  TestServer.layer(freshDataDir("metrics-engine-counts"), {
    SLUICE_ADMIN_EMAIL: ADMIN,
    SLUICE_ADMIN_PASSWORD: PASSWORD
  }),
  { excludeTestServices: true, timeout: 180_000 }
)("the counting range functions counted by the engine, beside Prometheus 2.42", (it) => {
  it.scoped.skipIf(!hasPrometheus)(
    "answers as Prometheus does over stale markers and a repeated write; explain shows where",
    () =>
      Effect.gen(function* () {
        const { reference, sluice, token, writeReference, writeSluice } = yield* besidePrometheus(
          ADMIN,
          PASSWORD
        )
        const body = remoteWriteBody(series)
        expect(yield* writeReference(body)).toBe(204)
        // Sent twice, the second once the first is stored (a query waits for that): two
        // parts, so until the engine merges them every sample is in the table twice.
        expect(yield* writeSluice(body)).toBe(204)
        yield* ask(sluice, "query", { query: "ec", time: at(T0) }, token)
        expect(yield* writeSluice(body)).toBe(204)

        const cases: ReadonlyArray<{
          readonly endpoint: "query" | "query_range"
          readonly params: Record<string, string>
          readonly counted: boolean
        }> = [
          // One window over more than an hour: counted.
          {
            endpoint: "query",
            params: { query: "count_over_time(ec[3h])", time: at(T0 + 4 * HOUR) },
            counted: true
          },
          {
            endpoint: "query",
            params: { query: "sum(count_over_time({s=~'.+'}[150m]))", time: at(T0 + 3 * HOUR) },
            counted: true
          },
          {
            endpoint: "query",
            params: {
              query: "count_over_time({s=~'.+'}[90m] offset 30m)",
              time: at(T0 + 4 * HOUR + 1_234)
            },
            counted: true
          },
          // Windows an hour apart, each 20 minutes, over three hours (a fractional start).
          {
            endpoint: "query_range",
            params: {
              query: "count_over_time({s=~'.+'}[20m])",
              start: at(T0 + HOUR + 500),
              end: at(T0 + 4 * HOUR),
              step: "3600"
            },
            counted: true
          },
          {
            endpoint: "query_range",
            params: {
              query: "present_over_time({s=~'.+'}[30m])",
              start: at(T0 + HOUR),
              end: at(T0 + 4 * HOUR),
              step: "2700"
            },
            counted: true
          },
          // Absent in one window of four (b's silence), in every window (c), at all (no series).
          {
            endpoint: "query_range",
            params: {
              query: "absent_over_time(ec{s='b'}[15m])",
              start: at(T0 + 100 * MINUTE),
              end: at(T0 + 4 * HOUR),
              step: "2700"
            },
            counted: true
          },
          {
            endpoint: "query_range",
            params: {
              query: "absent_over_time(ec{s='c'}[30m])",
              start: at(T0 + HOUR),
              end: at(T0 + 4 * HOUR),
              step: "2700"
            },
            counted: true
          },
          {
            endpoint: "query",
            params: { query: "absent_over_time(nothing{job='x'}[2h])", time: at(T0 + 4 * HOUR) },
            counted: true
          },
          // Overlapping windows, and a short read: the samples are read and counted here.
          {
            endpoint: "query_range",
            params: {
              query: "count_over_time(ec[20m])",
              start: at(T0 + HOUR),
              end: at(T0 + 4 * HOUR),
              step: "600"
            },
            counted: false
          },
          {
            endpoint: "query",
            params: { query: "count_over_time(ec[10m])", time: at(T0 + 2 * HOUR + 5 * MINUTE) },
            counted: false
          }
        ]
        for (const { counted, endpoint, params } of cases) {
          const theirs = yield* ask(reference, endpoint, params)
          const ours = yield* ask(sluice, endpoint, params, token)
          expect(theirs.data.result.length, params.query).toBeGreaterThan(0)
          expect(ours.data, params.query).toEqual(theirs.data)
          const explained = yield* ask(sluice, endpoint, { ...params, explain: "true" }, token)
          const statements = (explained.data.explain ?? []).flatMap((one) => one.sql)
          expect(statements.length, params.query).toBeGreaterThan(0)
          expect(
            statements.every((sql) => sql.includes("uniqExact")),
            params.query
          ).toBe(counted)
        }
      })
  )
})
