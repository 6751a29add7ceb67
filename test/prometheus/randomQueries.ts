/**
 * `npx tsx test/prometheus/randomQueries.ts` (`SEED`, `N`, `DEPTH`; `QUERIES=<file>` runs the
 * file's lines instead): random PromQL over the compliance suite's demo data and a few odd
 * series (NaN, infinities, resets, gaps), asked of a Prometheus 2.42 and of sluice (a
 * server process, as `npm start` runs it) as a range query and an instant query at one of
 * several times, compared by the compliance tester's rules.
 * Prints each differing query with the first difference. Not part of the suite: besides
 * real differences it finds those Prometheus 3 makes against 2.42 (windows open on the
 * left, `atan2` dropping the name) and `topk`/`bottomk` keeping other series of equal
 * value, whose order Prometheus leaves to its storage or a Go map.
 */
import { Effect, Schema } from "effect"
import * as fs from "node:fs"
import { startMetricsServer } from "../bench/serverProcess.js"
import { hasPrometheus, startReceiver } from "../support/prometheus.js"
import type { TestSeries } from "../support/remoteWrite.js"
import { REMOTE_WRITE_HEADERS, remoteWriteBody } from "../support/remoteWrite.js"
import {
  DATES,
  MATH,
  RANGE_FUNCTIONS as RANGE
} from "../../src/prometheus/promql/parser/Functions.js"
import { ApiReply, difference } from "./compare.js"
import { DATA_END, DATA_START, demoSeries, minuteSlices } from "./demoData.js"

/** mulberry32: the same queries for the same seed. */
const randomFrom = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296
}
const random = randomFrom(Number(process.env.SEED ?? 1))
const pick = <A>(choices: ReadonlyArray<A>): A => choices[Math.floor(random() * choices.length)]!

/**
 * Series the demo data lacks, written alongside it: NaN and infinite values, negatives,
 * zeros, counters that reset, irregular scrapes and gaps longer than the lookback.
 */
const oddSeries = (): ReadonlyArray<TestSeries> => {
  const odd = randomFrom(4242)
  const out: Array<TestSeries> = []
  for (const [k, offset] of [
    ["a", 111],
    ["b", 2222],
    ["c", 7777],
    ["d", 12_345]
  ] as const) {
    const gauge: Array<readonly [number, number]> = []
    const counter: Array<readonly [number, number]> = []
    let level = odd() * 100 - 50
    let total = 0
    for (let t = DATA_START + offset; t < DATA_END; t += 10_000 + Math.floor(odd() * 10_000)) {
      // A seven-minute gap every forty minutes, longer than the lookback.
      if ((t - DATA_START) % 2_400_000 < 420_000 && k !== "a") continue
      const r = odd()
      level += (odd() - 0.5) * 20
      gauge.push([
        t,
        r < 0.03 ? NaN : r < 0.04 ? Infinity : r < 0.05 ? -Infinity : r < 0.08 ? 0 : level
      ])
      total = odd() < 0.02 ? 0 : total + Math.floor(odd() * 5)
      counter.push([t, odd() < 0.01 ? NaN : total])
    }
    out.push({ labels: { __name__: "odd_gauge", k }, samples: gauge })
    out.push({ labels: { __name__: "odd_counter", k }, samples: counter })
  }
  return out
}

const GAUGES = [
  "odd_gauge",
  'odd_gauge{k=~"a|b"}',
  "demo_memory_usage_bytes",
  "demo_num_cpus",
  "demo_disk_usage_bytes",
  "demo_batch_last_success_timestamp_seconds",
  "demo_intermittent_metric",
  'demo_memory_usage_bytes{type="used"}',
  'demo_memory_usage_bytes{type!="free"}',
  'demo_num_cpus{instance=~"demo.*:10001"}'
]
const COUNTERS = [
  "odd_counter",
  "demo_cpu_usage_seconds_total",
  "demo_api_request_duration_seconds_count",
  "demo_api_request_duration_seconds_sum",
  'demo_api_request_duration_seconds_count{status="500"}',
  'demo_cpu_usage_seconds_total{mode="idle"}',
  'demo_api_request_duration_seconds_bucket{le="0.1"}'
]
const LABELS = ["instance", "job", "mode", "type", "method", "path", "status", "le"]
const RANGES = ["1m", "5m", "90s", "10m", "3m", "30s", "1h"]
const OFFSETS = ["", "", "", " offset 1m", " offset 5m", " offset 90s", " offset -1m"]
const NUMBERS = ["0", "1", "2", "0.5", "-1", "100", "1e9", "3.7", "NaN", "Inf", "-Inf", "1e-3"]
// The evaluator's own function lists, less what Prometheus 2.42 (the reference) lacks and
// the range functions that take a parameter besides the range (generated apart below).
const PROMETHEUS_3_ONLY = new Set([
  "mad_over_time",
  "double_exponential_smoothing",
  "first_over_time",
  "ts_of_first_over_time",
  "ts_of_last_over_time",
  "ts_of_max_over_time",
  "ts_of_min_over_time"
])
const RANGE_FUNCTIONS = [...RANGE].filter(
  (fn) => !PROMETHEUS_3_ONLY.has(fn) && fn !== "quantile_over_time" && fn !== "predict_linear"
)
const FUNCTIONS = [
  ...Object.keys(MATH),
  ...Object.keys(DATES),
  "round",
  "timestamp",
  "sort",
  "sort_desc",
  "absent"
]
const AGGREGATIONS = ["sum", "avg", "min", "max", "count", "stddev", "stdvar", "group"]
const OPERATORS = ["+", "-", "*", "/", "%", "^", "atan2", "==", "!=", ">", "<", ">=", "<="]

const labelList = () =>
  [...new Set(Array.from({ length: 1 + Math.floor(random() * 2) }, () => pick(LABELS)))].join(", ")
const selector = () => (random() < 0.5 ? pick(GAUGES) : pick(COUNTERS)) + pick(OFFSETS)

/** An expression of instant-vector type, nested up to `depth`. */
const vector = (depth: number): string => {
  const r = random()
  const inner = () => vector(depth - 1)
  if (depth <= 0 || r < 0.15) return selector()
  if (r < 0.35)
    return `${pick(RANGE_FUNCTIONS)}(${pick(random() < 0.5 ? COUNTERS : GAUGES)}[${pick(RANGES)}]${pick(OFFSETS)})`
  if (r < 0.42) return `${pick(FUNCTIONS)}(${inner()})`
  if (r < 0.45) return `-${inner()}`
  if (r < 0.6) {
    const modifier = random() < 0.3 ? "" : ` ${random() < 0.7 ? "by" : "without"} (${labelList()})`
    return `${pick(AGGREGATIONS)}${modifier} (${inner()})`
  }
  if (r < 0.67) return `${pick(["topk", "bottomk"])}(${pick(["1", "2", "3"])}, ${inner()})`
  if (r < 0.7) return `quantile(${pick(["0", "0.5", "0.9", "1", "-1", "2"])}, ${inner()})`
  if (r < 0.8)
    return `${inner()} ${pick(OPERATORS)}${random() < 0.2 ? " bool" : ""} ${pick(NUMBERS)}`
  if (r < 0.88) {
    const matching =
      random() < 0.5 ? ` on (${labelList()})` : random() < 0.5 ? ` ignoring (${labelList()})` : ""
    return `${inner()} ${pick(OPERATORS)}${matching} ${inner()}`
  }
  if (r < 0.92)
    return `${inner()} ${pick(["and", "or", "unless"])}${random() < 0.5 ? ` on (${labelList()})` : ""} ${inner()}`
  if (r < 0.96)
    return pick([
      `count_values("v", ${inner()})`,
      `quantile_over_time(${pick(["0.5", "0.9", "0", "1"])}, ${pick(GAUGES)}[${pick(RANGES)}])`,
      `predict_linear(${pick(GAUGES)}[${pick(RANGES)}], ${pick(["60", "3600", "-30"])})`,
      `label_replace(${inner()}, "dst", "$1-x", "${pick(LABELS)}", "(.*)")`,
      `label_join(${inner()}, "dst", "/", "${pick(LABELS)}", "${pick(LABELS)}")`,
      `${inner()} ${pick(["*", "+", "/"])} on (instance, job) group_left (${pick(["type", "mode", "path"])}) ${inner()}`,
      `${pick(GAUGES)} @ ${pick(["start()", "end()", String(Math.round(DATA_END / 1000 - 3000))])}`,
      `clamp(${inner()}, ${pick(["0", "-1", "100"])}, ${pick(["1e9", "50", "-5"])})`,
      `${inner()} ${pick([">", "<", "==", "!="])} bool ${inner()}`,
      `${pick(["rate", "max_over_time", "deriv"])}((${inner()})[${pick(["5m", "10m"])}:${pick(["", "1m", "20s"])}] ${pick(["offset 2m", "@ end()", "offset -1m"])})`,
      `${inner()} ${pick(OPERATORS)} scalar(${inner()})`,
      `round(${inner()}, ${pick(["0.1", "3", "-2", "0", "NaN"])})`,
      `${pick(FUNCTIONS)}(vector(${pick(NUMBERS)}))`,
      `vector(${pick(NUMBERS)}) ${pick(OPERATORS)} ${pick(NUMBERS)}`,
      `-${selector()} ^ ${pick(NUMBERS)}`,
      `${inner()} ${pick(OPERATORS)} -${selector()} ${pick(OPERATORS)} ${pick(NUMBERS)}`,
      `${pick(NUMBERS)} ${pick(OPERATORS.slice(0, 7))} -${pick(NUMBERS)} ^ ${pick(NUMBERS)}`,
      `histogram_quantile(${pick(["-1", "2", "NaN", "0", "1", "0.5"])}, rate(demo_api_request_duration_seconds_bucket{path="/api/foo", method="GET", status="200"}[${pick(RANGES)}]))`
    ])
  return `histogram_quantile(${pick(["0.5", "0.9", "0.99"])}, sum by (le${random() < 0.5 ? ", path" : ""}) (rate(demo_api_request_duration_seconds_bucket[${pick(["1m", "5m"])}])))`
}

const QUERY_END = (DATA_END - 12 * 60_000) / 1000 + 0.1234
const ENDS = [QUERY_END, QUERY_END - 0.9, DATA_END / 1000 + 100.5, DATA_END / 1000 + 400]

const queries = process.env.QUERIES
  ? fs
      .readFileSync(process.env.QUERIES, "utf8")
      .split("\n")
      .filter((line) => line.trim() !== "")
  : Array.from({ length: Number(process.env.N ?? 300) }, () =>
      vector(Number(process.env.DEPTH ?? 3))
    )

const ask = (base: string, endpoint: string, params: Record<string, string>, key?: string) =>
  Effect.promise(async () => {
    const response = await fetch(`${base}/api/v1/${endpoint}`, {
      method: "POST",
      body: new URLSearchParams(params),
      headers: key === undefined ? {} : { authorization: `Bearer ${key}` }
    })
    return Schema.decodeUnknownSync(ApiReply)(await response.json())
  })

const compare = Effect.scoped(
  Effect.gen(function* () {
    const server = yield* startMetricsServer("random-queries")
    const reference = yield* startReceiver
    const sluice = server.metricsUrl
    for (const slice of minuteSlices([...demoSeries(), ...oddSeries()])) {
      const body = remoteWriteBody(slice)
      yield* Effect.promise(() =>
        Promise.all([
          fetch(`${reference.url}/api/v1/write`, {
            method: "POST",
            body,
            headers: REMOTE_WRITE_HEADERS
          }),
          fetch(`${sluice}/api/v1/write`, {
            method: "POST",
            body,
            headers: { ...REMOTE_WRITE_HEADERS, authorization: `Bearer ${server.key}` }
          })
        ])
      )
    }
    let differing = 0
    yield* Effect.forEach(
      queries,
      (query) =>
        Effect.gen(function* () {
          const end = pick(ENDS)
          const range = {
            query,
            start: String(end - pick([3600, 600])),
            end: String(end),
            step: pick(["10", "15", "37", "60", "1"])
          }
          const instant = { query, time: String(end) }
          const [theirRange, ourRange, theirInstant, ourInstant] = yield* Effect.all([
            ask(reference.url, "query_range", range),
            ask(sluice, "query_range", range, server.key),
            ask(reference.url, "query", instant),
            ask(sluice, "query", instant, server.key)
          ])
          for (const [kind, theirs, ours] of [
            ["range", theirRange, ourRange],
            ["instant", theirInstant, ourInstant]
          ] as const) {
            const reason =
              theirs.status === "error"
                ? ours.status === "error"
                  ? undefined
                  : `Prometheus refused it (${theirs.error}); sluice answered`
                : difference(false, theirs, ours)
            if (reason === undefined) continue
            differing += 1
            console.log(`${kind} (end ${end}, step ${range.step}): ${query}\n  ${reason}`)
          }
        }),
      { concurrency: 4 }
    )
    console.log(`${queries.length} queries, ${differing} differing answers`)
  })
)

if (!hasPrometheus) console.log("no `prometheus` on PATH (apt-get install prometheus)")
else await Effect.runPromise(compare)
