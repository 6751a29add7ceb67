/**
 * A day of metrics beside Prometheus 2.42, as a Grafana user meets it: 200 counter
 * series (4 groups × 50 pods, each pod one of 10 `le` buckets) with a sample every 15 s
 * for 25 h (1.2 M samples), written as 25 one-hour bodies per sender by 4 senders at once
 * until readable (history accepted on both sides: Prometheus with its out-of-order
 * window), then four range queries over the whole day at a 2-minute step and one at
 * 1-hour steps (windows with gaps between them), best of three per side, answers compared. Each figure comes with the CPU seconds each side's
 * processes used (Prometheus; sluice's server and its engine workers, and for the queries
 * each of those two apart).
 */
import { Effect, Schema } from "effect"
import * as http from "node:http"
import * as zlib from "node:zlib"
import { childPids } from "../clusters/workerProcesses.js"
import { ApiReply, difference } from "../prometheus/compare.js"
import { freePort, startPrometheus } from "../support/prometheus.js"
import type { TestSeries } from "../support/remoteWrite.js"
import { REMOTE_WRITE_HEADERS, remoteWriteBody } from "../support/remoteWrite.js"
import { cpuSecondsOfAll, timed, untilQuiet } from "./clients.js"
import type { ServerProcess } from "./serverProcess.js"
import { besidePrometheus, startMetricsServer } from "./serverProcess.js"

const SENDERS = 4
const GROUPS = 4
const PODS = 50
const HOURS = 25
const SCRAPE_MS = 15_000
const PER_HOUR = 3_600_000 / SCRAPE_MS
const BOUNDS = ["0.05", "0.1", "0.2", "0.5", "1", "2", "5", "10", "30", "+Inf"]
export const DAY_START = Date.UTC(2026, 2, 1)
const DAY_END = DAY_START + HOURS * 3_600_000
export const DAY_SAMPLES = GROUPS * PODS * HOURS * PER_HOUR

export const DAY_QUERIES = [
  "sum by (group) (rate(bench_day_total[5m]))",
  "topk(2, sum by (group) (increase(bench_day_total[1h])))",
  "histogram_quantile(0.9, sum by (le) (rate(bench_day_total[5m])))",
  "max_over_time(bench_day_total[30m])"
]
/** A day at hourly steps, as a dashboard over weeks asks: windows with gaps between them. */
const HOURLY_QUERY = "sum by (group) (rate(bench_day_total[5m]))"

interface DaySeries {
  readonly labels: Record<string, string>
  /** A millisecond offset that is never a query step's (steps end in .123 s). */
  readonly offset: number
  readonly slope: number
  /** The sample index at which the counter restarts from zero, or -1. */
  readonly reset: number
}

const daySeries = (): Array<DaySeries> =>
  Array.from({ length: GROUPS * PODS }, (_, i) => ({
    labels: {
      __name__: "bench_day_total",
      group: `g${i % GROUPS}`,
      pod: `p${Math.floor(i / GROUPS)}`,
      le: BOUNDS[Math.floor(i / GROUPS) % BOUNDS.length]!
    },
    offset: ((i * 7) % 14) * 1000 + 500 + i,
    slope: 1 + (Math.floor(i / GROUPS) % BOUNDS.length) * 3 + (i % 7) * 0.25,
    reset: i % 9 === 0 ? PER_HOUR * (3 + (i % 20)) : -1
  }))

/** Each sender's bodies (its quarter of the series), one per hour, oldest first. */
export const dayBodies = (): Array<Array<Uint8Array>> => {
  const series = daySeries()
  return Array.from({ length: SENDERS }, (_, sender) => {
    const mine = series.filter((_, i) => i % SENDERS === sender)
    return Array.from({ length: HOURS }, (_, hour) =>
      remoteWriteBody(
        mine.map((s): TestSeries => ({
          labels: s.labels,
          samples: Array.from({ length: PER_HOUR }, (_, k) => {
            const n = hour * PER_HOUR + k
            const since = s.reset >= 0 && n >= s.reset ? n - s.reset : n
            // A little noise that keeps the counter rising.
            const value = since * s.slope + ((n * 7919) % 13) / 13
            return [DAY_START + n * SCRAPE_MS + s.offset, value] as const
          })
        }))
      )
    )
  })
}

/**
 * The metrics benches' client: Node's own `http` on kept-alive connections (one per
 * request in flight), asking for gzip as Grafana's and Prometheus's own Go clients do (Go
 * adds `Accept-Encoding: gzip` to every request); Prometheus then compresses its answers,
 * sluice does not. The bench shares two cores with both servers, so what its client costs
 * falls on whichever server is busy: `fetch` (undici) cost 2–7 times Node's `http` in CPU
 * a remote write (figures in README.md).
 */
const agent = new http.Agent({ keepAlive: true })

const send = (
  url: string,
  method: "GET" | "POST",
  headers: Record<string, string>,
  body?: Uint8Array
) =>
  new Promise<{ readonly status: number; readonly text: string }>((resolve, reject) => {
    const asked = { ...headers, "accept-encoding": "gzip" }
    const request = http.request(url, { method, headers: asked, agent }, (response) => {
      const chunks: Array<Buffer> = []
      response.on("data", (chunk: Buffer) => chunks.push(chunk))
      response.on("end", () => {
        const bytes = Buffer.concat(chunks)
        const text = (
          response.headers["content-encoding"] === "gzip" ? zlib.gunzipSync(bytes) : bytes
        ).toString("utf8")
        resolve({ status: response.statusCode ?? 0, text })
      })
      response.on("error", reject)
    })
    request.on("error", reject)
    request.end(body)
  })

export const post = async (url: string, body: Uint8Array, headers: Record<string, string>) => {
  const reply = await send(url, "POST", { ...headers, "content-length": String(body.length) }, body)
  if (reply.status !== 204) throw new Error(`remote write to ${url}: ${reply.status} ${reply.text}`)
}

export const getText = async (url: string, token?: string) => {
  const reply = await send(
    url,
    "GET",
    token === undefined ? {} : { authorization: `Bearer ${token}` }
  )
  if (reply.status >= 500) throw new Error(`${url}: ${reply.status} ${reply.text}`)
  return reply.text
}

/**
 * One side made warm before anything is timed (sluice's engine worker started, its
 * series tables made, its PromQL grammar loaded): a write of a series no timed query
 * names, at `time` (ms), and a read of it.
 */
export const warmUp = async (
  url: string,
  headers: Record<string, string>,
  time: number,
  token?: string
) => {
  const body = remoteWriteBody([{ labels: { __name__: "bench_warm_up" }, samples: [[time, 1]] }])
  await post(`${url}/api/v1/write`, body, headers)
  await getText(`${url}/api/v1/query?query=bench_warm_up&time=${time / 1000}`, token)
}

const rate = (samples: number, seconds: number) =>
  Math.round(samples / seconds).toLocaleString("en")

/** A Prometheus that takes history from several senders at once. */
export const startHistoryReceiver = Effect.flatMap(freePort(), (port) =>
  startPrometheus(port, "storage:\n  tsdb:\n    out_of_order_time_window: 30d\n", [
    "--storage.tsdb.retention.time=100y",
    "--web.enable-remote-write-receiver"
  ])
)

/** The day's writes and reads on both sides; `server` is sluice with the metrics app installed. */
export const metricsDay = (server: ServerProcess) =>
  Effect.gen(function* () {
    const bodies = dayBodies()
    const reference = yield* startHistoryReceiver
    const sluice = `${server.url}/metrics-compat`
    const sides = {
      prometheus: {
        url: reference.url,
        headers: REMOTE_WRITE_HEADERS,
        key: undefined,
        pids: () => [reference.pid!]
      },
      sluice: {
        url: sluice,
        headers: { ...REMOTE_WRITE_HEADERS, authorization: `Bearer ${server.key}` },
        key: server.key,
        pids: () => [server.pid, ...childPids(server.pid)]
      }
    }
    type Side = keyof typeof sides
    // Readable means every sample can be read back: Prometheus takes history into its
    // out-of-order head, where a query right after the writes sometimes missed some of it
    // (its answers then differed from sluice's by missing points).
    const readBack = `query=sum(count_over_time(bench_day_total[26h]))&time=${DAY_END / 1000}`
    const Counted = Schema.parseJson(
      Schema.Struct({
        data: Schema.Struct({
          result: Schema.Array(Schema.Struct({ value: Schema.Tuple(Schema.Number, Schema.String) }))
        })
      })
    )
    const allReadable = async (url: string, key: string | undefined) => {
      for (let tries = 0; tries < 600; tries++) {
        const answer = Schema.decodeUnknownSync(Counted)(
          await getText(`${url}/api/v1/query?${readBack}`, key)
        )
        if (Number(answer.data.result[0]?.value[1] ?? 0) >= DAY_SAMPLES) return
        await new Promise((resolve) => setTimeout(resolve, 100))
      }
      throw new Error(`${url}: not every sample of the day became readable`)
    }
    const writes = { prometheus: { seconds: 0, cpu: 0 }, sluice: { seconds: 0, cpu: 0 } }
    yield* Effect.promise(async () => {
      for (const side of ["prometheus", "sluice"] as Array<Side>) {
        const { url, headers, key, pids } = sides[side]
        await warmUp(url, headers, DAY_START, key)
        // The other side may still be busy with what it was sent (Prometheus compacting
        // its out-of-order head, sluice merging parts): a side starts once both are quiet.
        await untilQuiet([...sides.prometheus.pids(), ...sides.sluice.pids()])
        const before = cpuSecondsOfAll(pids())
        writes[side].seconds = await timed(async () => {
          await Promise.all(
            bodies.map(async (mine) => {
              for (const body of mine) await post(`${url}/api/v1/write`, body, headers)
            })
          )
          await allReadable(url, key)
        })
        writes[side].cpu = cpuSecondsOfAll(pids()) - before
      }
    })
    console.log(
      `day: remote write, ${SENDERS} senders at once, ${DAY_SAMPLES.toLocaleString("en")} samples ` +
        `in ${HOURS} one-hour bodies each (until readable): prometheus ` +
        `${rate(DAY_SAMPLES, writes.prometheus.seconds)} samples/s (${writes.prometheus.seconds.toFixed(2)} s, ` +
        `CPU ${writes.prometheus.cpu.toFixed(2)} s), sluice ${rate(DAY_SAMPLES, writes.sluice.seconds)} ` +
        `samples/s (${writes.sluice.seconds.toFixed(2)} s, CPU ${writes.sluice.cpu.toFixed(2)} s); ratio ` +
        `${(writes.prometheus.seconds / writes.sluice.seconds).toFixed(2)} (target ≥ 1.0)`
    )

    const range = (query: string, step: number) =>
      new URLSearchParams({
        query,
        start: String(DAY_START / 1000 + 0.123),
        end: String(DAY_END / 1000 + 0.123),
        step: String(step)
      })
    const decode = Schema.decodeUnknownSync(Schema.parseJson(ApiReply))
    const asked = [
      ...DAY_QUERIES.map((query) => ({ query, step: 120 })),
      { query: HOURLY_QUERY, step: 3600 }
    ]
    // sluice's CPU split between its server process and its engine workers: which side a
    // query's cost is on (the workers' includes background merges after the writes).
    const serverCpu = () => cpuSecondsOfAll([server.pid])
    for (const { query, step } of asked) {
      const best = { prometheus: Infinity, sluice: Infinity }
      // The first round reads the day from storage on both sides; later ones may be
      // answered from what a side kept (sluice's read cache, Prometheus's pages).
      const first = { prometheus: 0, sluice: 0 }
      const cpu = { prometheus: 0, sluice: 0 }
      let sluiceServer = 0
      const answers: Partial<Record<Side, string>> = {}
      yield* Effect.promise(async () => {
        // Each query starts once neither side is busy: what came before (the day's write,
        // or `bench metrics`' 10M-sample table just written) still merging in sluice's
        // engine, or compacting in Prometheus, must not fall on one query's time.
        await untilQuiet([...sides.prometheus.pids(), ...sides.sluice.pids()])
        for (let round = 0; round < 3; round++)
          for (const side of ["prometheus", "sluice"] as Array<Side>) {
            const { url, key, pids } = sides[side]
            const before = cpuSecondsOfAll(pids())
            const serverBefore = serverCpu()
            const seconds = await timed(async () => {
              answers[side] = await getText(`${url}/api/v1/query_range?${range(query, step)}`, key)
            })
            cpu[side] += cpuSecondsOfAll(pids()) - before
            if (side === "sluice") sluiceServer += serverCpu() - serverBefore
            best[side] = Math.min(best[side], seconds)
            if (round === 0) first[side] = seconds
          }
      })
      const differs = difference(false, decode(answers.prometheus!), decode(answers.sluice!))
      console.log(
        `day: ${query} at ${step / 60}-minute steps: prometheus ${(best.prometheus * 1000).toFixed(0)} ms, sluice ` +
          `${(best.sluice * 1000).toFixed(0)} ms (best of 3; CPU over the 3: prometheus ` +
          `${cpu.prometheus.toFixed(2)} s, sluice ${cpu.sluice.toFixed(2)} s: server ` +
          `${sluiceServer.toFixed(2)}, engine workers ${(cpu.sluice - sluiceServer).toFixed(2)}); ratio ` +
          `${(best.sluice / best.prometheus).toFixed(2)} (target ≤ 1.5; first round: prometheus ` +
          `${(first.prometheus * 1000).toFixed(0)} ms, sluice ${(first.sluice * 1000).toFixed(0)} ms, ` +
          `${(first.sluice / first.prometheus).toFixed(2)}); answers ` +
          (differs === undefined ? "equal" : `DIFFER: ${differs.slice(0, 200)}`)
      )
    }
  })

/** `npm run bench metrics-day`: the day alone, on a server of its own. */
export const metricsDayAlone = besidePrometheus(
  Effect.gen(function* () {
    const server = yield* startMetricsServer("bench-metrics-day")
    yield* metricsDay(server)
  })
)
