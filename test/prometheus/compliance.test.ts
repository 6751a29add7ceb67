/**
 * The PromQL compliance suite (the upstream tester's 539 queries) against a real
 * Prometheus fed the same remote-write bytes: each query as a range query (the upstream
 * tester's way) and as an instant query at the end time, compared by the tester's rules.
 * Prints the counts and the differing ids by reason, and holds the counts reached (a
 * ratchet: raise them as differences are fixed). Then queries outside the suite that
 * random comparisons found sluice answering otherwise, which must now agree. Skips when
 * no `prometheus` is on PATH (.ci/run installs Debian's 2.42).
 */
import { expect, layer } from "@effect/vitest"
import { Effect, Schema } from "effect"
import * as fs from "node:fs"
import * as path from "node:path"
import { installApp } from "../support/client.js"
import { hasPrometheus, startReceiver } from "../support/prometheus.js"
import { REMOTE_WRITE_HEADERS, remoteWriteBody } from "../support/remoteWrite.js"
import { adminKeyOf, freshDataDir, TestServer } from "../support/server.js"
import { boundarySeries, DATA_END, demoSeries, minuteSlices } from "./demoData.js"
import { ApiReply, difference } from "./compare.js"

/** Reached on this data; a lower count is a regression. */
const RANGE_EQUAL_AT_LEAST = 539
const INSTANT_EQUAL_AT_LEAST = 539

const ADMIN = "metrics-compliance@example.com"
const PASSWORD = "metrics compliance password"
// The 539 queries of the Prometheus compliance suite, expanded (a copy of
// tester's queries.json, kept in the repo so a fresh clone runs them).
const QUERIES_FILE = path.join(import.meta.dirname, "fixtures/promql-compliance-queries.json")
const Queries = Schema.Array(
  Schema.Struct({ id: Schema.Number, query: Schema.String, should_fail: Schema.Boolean })
)

if (!hasPrometheus)
  console.warn("compliance: no `prometheus` on PATH (apt-get install prometheus); skipped")

/** Queries outside the suite that sluice once answered otherwise than Prometheus. */
const REGRESSIONS: ReadonlyArray<{ readonly query: string; readonly fails: boolean }> = [
  // An offset before a tighter operator: `x unless ((x offset 1m) > 100)`.
  { query: "demo_num_cpus unless demo_num_cpus offset 1m > 100", fails: false },
  { query: "demo_num_cpus and demo_num_cpus @ end() >= 4", fails: false },
  // A sign binds looser than `^`, also after an offset, and written with a space.
  { query: "-demo_num_cpus offset 1m ^ 2", fails: false },
  { query: "vector(- 1 ^ 2)", fails: false },
  // Go's math.Pow.
  { query: "vector(1 ^ Inf) + vector((-1) ^ -Inf) + vector(1 ^ NaN)", fails: false },
  // No bucket le="0.1": nothing to match, so no duplicate-series error.
  {
    query:
      'min by (path) (demo_api_request_duration_seconds_bucket{le="0.1"}) - on (le) demo_num_cpus or vector(1)',
    fails: false
  },
  // Dates as Go reads the value.
  {
    query: "hour(vector(-0.5)) + year(vector(NaN)) + day_of_month(vector(-62135596800))",
    fails: false
  },
  { query: 'count_values("v", vector(0 * -1))', fails: false },
  // A quantile on a bucket boundary: the rate's last bit decides the bucket (2, not ~1).
  { query: "histogram_quantile(0.1, rate(sluice_boundary_bucket[1m]))", fails: false },
  // Refused by Prometheus's parser.
  { query: "demo_num_cpus + bool 1", fails: true },
  { query: "1 - on (job) demo_num_cpus", fails: true }
]

// The tester's defaults: end 12 min before "now", 10 min back, 10 s steps; sub-ms digits.
const END = (DATA_END - 12 * 60_000) / 1000 + 0.1234
const START = END - 600

const post = (url: string, body: Uint8Array, headers: Record<string, string>) =>
  Effect.promise(() =>
    fetch(url, { method: "POST", body, headers }).then(async (r) => ({
      status: r.status,
      text: await r.text()
    }))
  )

const ask = (base: string, endpoint: string, params: Record<string, string>, token?: string) =>
  Effect.promise(async () => {
    const response = await fetch(`${base}/api/v1/${endpoint}?${new URLSearchParams(params)}`, {
      headers: token === undefined ? {} : { authorization: `Bearer ${token}` }
    })
    return Schema.decodeUnknownSync(ApiReply)(await response.json())
  })

/** Milliseconds spent per side, summed over requests (they overlap, so not wall time). */
const spent = { reference: 0, sluice: 0, referenceWrite: 0, sluiceWrite: 0 }
const timed = <A, E, R>(side: keyof typeof spent, effect: Effect.Effect<A, E, R>) =>
  Effect.gen(function* () {
    const start = performance.now()
    const result = yield* effect
    spent[side] += performance.now() - start
    return result
  })

const reasonOf = (difference: string) => difference.split(":")[0]!

const report = (
  kind: string,
  total: number,
  failures: ReadonlyArray<{ id: number; reason: string }>
) => {
  const byReason = new Map<string, Array<number>>()
  for (const f of failures)
    byReason.set(reasonOf(f.reason), [...(byReason.get(reasonOf(f.reason)) ?? []), f.id])
  const lines = [`compliance (${kind}): ${total - failures.length} of ${total} equal`]
  for (const [reason, ids] of byReason) lines.push(`  ${reason} (${ids.length}): ${ids.join(", ")}`)
  for (const f of failures) lines.push(`    #${f.id}: ${f.reason}`)
  console.log(lines.join("\n"))
}

layer(
  TestServer.layer(freshDataDir("metrics-compliance"), {
    SLUICE_ADMIN_EMAIL: ADMIN,
    SLUICE_ADMIN_PASSWORD: PASSWORD
  }),
  {
    excludeTestServices: true,
    timeout: 20 * 60_000
  }
)("PromQL compliance against Prometheus", (it) => {
  it.scoped.skipIf(!hasPrometheus)(
    "539 queries as range and instant queries, compared with Prometheus 2.42",
    () =>
      Effect.gen(function* () {
        const started = Date.now()
        const server = yield* TestServer
        const token = adminKeyOf(server)
        yield* installApp(server, "metrics-app", ADMIN, PASSWORD)
        const reference = yield* startReceiver
        const sluice = `${server.url}/metrics-compat`
        for (const slice of minuteSlices([...demoSeries(), ...boundarySeries()])) {
          const body = remoteWriteBody(slice)
          const toReference = yield* timed(
            "referenceWrite",
            post(`${reference.url}/api/v1/write`, body, REMOTE_WRITE_HEADERS)
          )
          expect(toReference.status, toReference.text).toBe(204)
          const toSluice = yield* timed(
            "sluiceWrite",
            post(`${sluice}/api/v1/write`, body, {
              ...REMOTE_WRITE_HEADERS,
              authorization: `Bearer ${token}`
            })
          )
          expect(toSluice.status, toSluice.text).toBe(204)
        }
        const ingested = Date.now()
        const queries = Schema.decodeUnknownSync(Queries)(
          JSON.parse(fs.readFileSync(QUERIES_FILE, "utf8"))
        )
        const range = { start: String(START), end: String(END), step: "10" }
        const instant = { time: String(END) }
        const outcomes = yield* Effect.forEach(
          queries,
          (q) =>
            Effect.gen(function* () {
              const [refRange, ourRange, refInstant, ourInstant] = yield* Effect.all([
                timed("reference", ask(reference.url, "query_range", { query: q.query, ...range })),
                timed("sluice", ask(sluice, "query_range", { query: q.query, ...range }, token)),
                timed("reference", ask(reference.url, "query", { query: q.query, ...instant })),
                timed("sluice", ask(sluice, "query", { query: q.query, ...instant }, token))
              ])
              return {
                id: q.id,
                answered:
                  refRange.status === "success" && JSON.stringify(refRange.data.result) !== "[]",
                range: difference(q.should_fail, refRange, ourRange),
                instant: difference(q.should_fail, refInstant, ourInstant)
              }
            }),
          { concurrency: 4 }
        )
        const rangeFailures = outcomes.flatMap((o) =>
          o.range === undefined ? [] : [{ id: o.id, reason: o.range }]
        )
        const instantFailures = outcomes.flatMap((o) =>
          o.instant === undefined ? [] : [{ id: o.id, reason: o.instant }]
        )
        // Equal answers only count if the reference had something to say: the other 72 are
        // empty by design (nonexistent metrics, filters nothing passes, [1s] windows, …).
        const answered = outcomes.filter((o) => o.answered).length
        const silent = outcomes.filter((o) => !o.answered).map((o) => o.id)
        console.log(
          `compliance: the reference answered ${answered} range queries with data; empty: ${silent.join(", ")}`
        )
        expect(answered).toBeGreaterThanOrEqual(467)
        report("range", queries.length, rangeFailures)
        report("instant", queries.length, instantFailures)
        const secs = (ms: number) => `${(ms / 1000).toFixed(1)} s`
        console.log(
          `compliance: ingest ${secs(ingested - started)} (writes: sluice ${secs(spent.sluiceWrite)}, ` +
            `prometheus ${secs(spent.referenceWrite)}), queries ${secs(Date.now() - ingested)} ` +
            `(summed per request: sluice ${secs(spent.sluice)}, prometheus ${secs(spent.reference)})`
        )
        // Beyond the suite: queries random comparisons found answered differently, each
        // fixed since (README); asked of both the same way, refusals included.
        const regressions = yield* Effect.forEach(
          REGRESSIONS,
          ({ query, fails }) =>
            Effect.gen(function* () {
              const [refRange, ourRange, refInstant, ourInstant] = yield* Effect.all([
                ask(reference.url, "query_range", { query, ...range }),
                ask(sluice, "query_range", { query, ...range }, token),
                ask(reference.url, "query", { query, ...instant }),
                ask(sluice, "query", { query, ...instant }, token)
              ])
              if (!fails)
                expect(
                  refInstant.status === "success" && refInstant.data.result,
                  query
                ).not.toEqual([])
              return [
                difference(fails, refRange, ourRange),
                difference(fails, refInstant, ourInstant)
              ].flatMap((reason) => (reason === undefined ? [] : [`${query}: ${reason}`]))
            }),
          { concurrency: 4 }
        )
        expect(regressions.flat()).toEqual([])
        expect(queries.length).toBe(539)
        expect(queries.length - rangeFailures.length).toBeGreaterThanOrEqual(RANGE_EQUAL_AT_LEAST)
        expect(queries.length - instantFailures.length).toBeGreaterThanOrEqual(
          INSTANT_EQUAL_AT_LEAST
        )
      }),
    20 * 60_000
  )
})
