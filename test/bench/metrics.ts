/**
 * The metrics-app next to Prometheus 2.42 on the same machine and bytes, in one run:
 * - remote write: the compliance suite's demo data (~950k samples in one-minute bodies),
 *   each body sent to Prometheus's own receiver and to sluice in turn, one sender each;
 *   later the same data under other names from 4 shards at once, each side alone, until
 *   the writes are readable;
 * - the 539 compliance queries as range queries (4 concurrent clients per side, one side
 *   after the other), total wall time per side: a first round over a window 40 minutes
 *   earlier, then three measured rounds, the first side alternating (the median ratio is
 *   the figure); and a first and one measured round on a second sluice that keeps no
 *   samples between queries;
 * - peak RSS growth (the server process and its engine workers) of one range query
 *   reading 10M samples, over a second data set written for it, with the time and CPU
 *   of each side (`npm run bench metrics-large` runs this part alone);
 * - a day of counters from 4 senders at once and four dashboard range queries over it
 *   (metricsDay.ts).
 * The server runs as `npm start` runs it, in its own process: this one holds the data
 * and the clients, as Prometheus's clients are outside Prometheus.
 * Skips with a note when no `prometheus` is on PATH.
 */
import { Effect, Schema } from "effect"
import * as fs from "node:fs"
import * as path from "node:path"
import { childPids, rssOf } from "../clusters/workerProcesses.js"
import { DATA_END, DATA_START, demoSeries, minuteSlices } from "../prometheus/demoData.js"
import { ApiReply, difference } from "../prometheus/compare.js"
import { startReceiver } from "../support/prometheus.js"
import type { TestSeries } from "../support/remoteWrite.js"
import { REMOTE_WRITE_HEADERS, remoteWriteBody } from "../support/remoteWrite.js"
import { cpuSecondsOf, pool, sumOver, timed, untilQuiet } from "./clients.js"
import { getText, metricsDay, post, warmUp } from "./metricsDay.js"
import type { ServerProcess } from "./serverProcess.js"
import { besidePrometheus, startMetricsServer } from "./serverProcess.js"

const CLIENTS = 4
const QUERIES_FILE = path.join(
  import.meta.dirname,
  "../prometheus/fixtures/promql-compliance-queries.json"
)
const Queries = Schema.Array(Schema.Struct({ id: Schema.Number, query: Schema.String }))
const END = (DATA_END - 12 * 60_000) / 1000 + 0.1234

// The large set: 1,000 series × 10,000 samples 10 s apart (10M samples over ~28 hours).
const BIG_SERIES = 1_000
const BIG_PER_BODY = 50
const BIG_SAMPLES = 10_000
const BIG_STEP_MS = 10_000
const BIG_START = Date.UTC(2026, 1, 1)
const BIG_QUERY = "sum by (group) (rate(bench_big_total[5m]))"

const bigBodies = (): Array<Uint8Array> => {
  const bodies: Array<Uint8Array> = []
  // 50 samples per series and body (50k samples), oldest first as a sender sends them.
  for (let from = 0; from < BIG_SAMPLES; from += BIG_PER_BODY) {
    const series: Array<TestSeries> = []
    for (let s = 0; s < BIG_SERIES; s++)
      series.push({
        labels: { __name__: "bench_big_total", series: String(s), group: String(s % 10) },
        samples: Array.from({ length: BIG_PER_BODY }, (_, i) => {
          const n = from + i
          return [BIG_START + n * BIG_STEP_MS + s, n * (1 + (s % 7))] as const
        })
      })
    bodies.push(remoteWriteBody(series))
  }
  return bodies
}

const rssTree = (server: number) => sumOver([server, ...childPids(server)], rssOf)

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`
const rate = (samples: number, seconds: number) =>
  Math.round(samples / seconds).toLocaleString("en")

export const metrics = besidePrometheus(
  Effect.gen(function* () {
    const slices = minuteSlices(demoSeries())
    const demoBodies = slices.map((slice) => remoteWriteBody(slice))
    const demoSamples = slices.reduce(
      (n, slice) => n + slice.reduce((m, s) => m + s.samples.length, 0),
      0
    )
    // Built before any connection is open: building them blocks this process for seconds,
    // and a kept-alive connection the server closed meanwhile would be reused.
    const shardBodies = Array.from({ length: CLIENTS }, (_, shard) =>
      minuteSlices(
        demoSeries()
          .filter((_, index) => index % CLIENTS === shard)
          .map((one) => ({
            ...one,
            labels: { ...one.labels, __name__: `sharded_${one.labels.__name__}` }
          }))
      ).map((slice) => remoteWriteBody(slice))
    )
    const server = yield* startMetricsServer("bench-metrics")
    const token = server.key
    const reference = yield* startReceiver
    const sluice = server.metricsUrl
    const sluiceHeaders = { ...REMOTE_WRITE_HEADERS, authorization: `Bearer ${token}` }

    yield* Effect.promise(async () => {
      await warmUp(reference.url, REMOTE_WRITE_HEADERS, DATA_START)
      await warmUp(sluice, sluiceHeaders, DATA_START, token)
    })

    const seconds = { prometheus: 0, sluice: 0 }
    yield* Effect.promise(async () => {
      for (const body of demoBodies) {
        seconds.prometheus += await timed(() =>
          post(`${reference.url}/api/v1/write`, body, REMOTE_WRITE_HEADERS)
        )
        seconds.sluice += await timed(() => post(`${sluice}/api/v1/write`, body, sluiceHeaders))
      }
    })
    console.log(
      `remote write: ${demoSamples.toLocaleString("en")} samples in ${demoBodies.length} bodies; ` +
        `prometheus ${rate(demoSamples, seconds.prometheus)} samples/s (${seconds.prometheus.toFixed(2)} s), ` +
        `sluice ${rate(demoSamples, seconds.sluice)} samples/s (${seconds.sluice.toFixed(2)} s); ` +
        `ratio sluice/prometheus ${(seconds.prometheus / seconds.sluice).toFixed(2)} (target ≥ 1.0)`
    )

    const queries = Schema.decodeUnknownSync(Queries)(
      JSON.parse(fs.readFileSync(QUERIES_FILE, "utf8"))
    )
    const range = (q: string, end: number) =>
      new URLSearchParams({ query: q, start: String(end - 600), end: String(end), step: "10" })
    const runQueries = (base: string, key?: string, end = END) =>
      Effect.promise(() =>
        timed(() =>
          pool(CLIENTS, queries, async (q) => {
            await getText(`${base}/api/v1/query_range?${range(q.query, end)}`, key)
          })
        )
      )
    // A first round over a window 40 minutes earlier, on both sides: a server that has
    // answered queries before, its code compiled by V8 (a first round also pays for
    // that), and none of the measured round's windows read yet (no earlier window
    // covers a later one, so nothing kept from this round serves the next).
    const warmUpEnd = END - 40 * 60
    const firstRound = {
      prometheus: yield* runQueries(reference.url, undefined, warmUpEnd),
      sluice: yield* runQueries(sluice, token, warmUpEnd)
    }
    console.log(
      `first round (window 40 min earlier): prometheus ${firstRound.prometheus.toFixed(1)} s, ` +
        `sluice ${firstRound.sluice.toFixed(1)} s; ratio ` +
        `${(firstRound.sluice / firstRound.prometheus).toFixed(2)}`
    )
    // Three measured rounds over windows no earlier round read (20 and 40 minutes apart),
    // the side that goes first alternating, each side starting once neither is busy with
    // what the last round left (without that wait, sluice's rounds right after
    // Prometheus's took up to a fifth longer). The median of the three is the figure.
    const bothPids = () => [
      ...(reference.pid === undefined ? [] : [reference.pid]),
      server.pid,
      ...childPids(server.pid)
    ]
    const measuredEnds = [END, END - 20 * 60, END - 60 * 60]
    const rounds: Array<{ prometheus: number; sluice: number }> = []
    // CPU over the three rounds: Prometheus's; sluice's server and its engine workers.
    const roundsCpu = { prometheus: 0, server: 0, engine: 0 }
    const engineCpu = () => sumOver(childPids(server.pid), cpuSecondsOf)
    const prometheusCpu = () =>
      sumOver(reference.pid === undefined ? [] : [reference.pid], cpuSecondsOf)
    for (const [index, end] of measuredEnds.entries()) {
      const round = { prometheus: 0, sluice: 0 }
      for (const side of index % 2 === 0
        ? (["prometheus", "sluice"] as const)
        : (["sluice", "prometheus"] as const)) {
        yield* Effect.promise(() => untilQuiet(bothPids()))
        if (side === "prometheus") {
          const before = prometheusCpu()
          round.prometheus = yield* runQueries(reference.url, undefined, end)
          roundsCpu.prometheus += prometheusCpu() - before
        } else {
          const [server0, engine0] = [cpuSecondsOf(server.pid), engineCpu()]
          round.sluice = yield* runQueries(sluice, token, end)
          roundsCpu.server += cpuSecondsOf(server.pid) - server0
          roundsCpu.engine += engineCpu() - engine0
        }
      }
      rounds.push(round)
    }
    const ratios = rounds.map((r) => r.sluice / r.prometheus)
    const medianRatio = [...ratios].sort((a, b) => a - b)[1]!
    const queryTime = rounds[0]!
    console.log(
      `queries: ${queries.length} range queries, ${CLIENTS} clients, three rounds; prometheus ` +
        `${rounds.map((r) => r.prometheus.toFixed(2)).join(" / ")} s, sluice ` +
        `${rounds.map((r) => r.sluice.toFixed(2)).join(" / ")} s; ratio sluice/prometheus ` +
        `${ratios.map((r) => r.toFixed(2)).join(" / ")}, median ${medianRatio.toFixed(2)} (target ≤ 1.0); ` +
        `CPU over the three: prometheus ${roundsCpu.prometheus.toFixed(2)} s, sluice ` +
        `${(roundsCpu.server + roundsCpu.engine).toFixed(2)} s (server ${roundsCpu.server.toFixed(2)}, ` +
        `engine ${roundsCpu.engine.toFixed(2)})`
    )
    // The same rounds on a server that keeps no samples between queries
    // (SLUICE_METRICS_READ_CACHE_BYTES=0): every selector read from the engine, only
    // reads of one window asked at the same time shared.
    const plainTime = yield* Effect.scoped(
      Effect.gen(function* () {
        const plain = yield* startMetricsServer("bench-metrics-plain", {
          SLUICE_METRICS_READ_CACHE_BYTES: "0"
        })
        const base = plain.metricsUrl
        const headers = { ...REMOTE_WRITE_HEADERS, authorization: `Bearer ${plain.key}` }
        yield* Effect.promise(async () => {
          await warmUp(base, headers, DATA_START, plain.key)
          for (const body of demoBodies) await post(`${base}/api/v1/write`, body, headers)
        })
        yield* runQueries(base, plain.key, warmUpEnd)
        return yield* runQueries(base, plain.key)
      })
    )
    console.log(
      `  the same with no samples kept between queries: sluice ${plainTime.toFixed(1)} s; ratio ` +
        `${(plainTime / queryTime.prometheus).toFixed(2)}`
    )

    // Four senders at once, as Prometheus's remote write sends: each series belongs to
    // one shard, which sends its bodies in time order (Prometheus 2.42 refuses a sample
    // older than its series' newest). The demo data again under other metric names (new
    // series on both sides), each side alone, two rounds whose first side rotates;
    // Prometheus's side is a fresh receiver, as the first one refuses samples an hour
    // older than its newest. A side's time runs until its writes are acknowledged and
    // then readable: sluice acknowledges a write once it is logged and stores it in the
    // background, so each side's time ends with an instant query (sluice's waits for
    // every accepted write to be stored).
    const shardedSeconds = { prometheus: 0, sluice: 0 }
    const acknowledged = { prometheus: 0, sluice: 0 }
    const shardReference = yield* startReceiver
    yield* Effect.promise(() => warmUp(shardReference.url, REMOTE_WRITE_HEADERS, DATA_START))
    const readBack = `query=sharded_demo_num_cpus&time=${DATA_END / 1000}`
    const targets = {
      prometheus: { url: shardReference.url, headers: REMOTE_WRITE_HEADERS, key: undefined },
      sluice: { url: sluice, headers: sluiceHeaders, key: token }
    }
    // CPU each side's processes used meanwhile: Prometheus's; sluice's server, and its
    // engine (the worker processes).
    const processes = {
      prometheus: () => [shardReference.pid!],
      sluice: () => [server.pid, ...childPids(server.pid)]
    }
    const cpuOf = (side: keyof typeof targets) => sumOver(processes[side](), cpuSecondsOf)
    const shardedCpu = { prometheus: 0, sluice: 0, sluiceServer: 0 }
    const sendShards = (side: keyof typeof targets, from: number, to: number) =>
      timed(async () => {
        const before = cpuOf(side)
        const serverBefore = cpuSecondsOf(server.pid)
        const { url, headers, key } = targets[side]
        acknowledged[side] += await timed(() =>
          Promise.all(
            shardBodies.map(async (bodies) => {
              for (const body of bodies.slice(from, to))
                await post(`${url}/api/v1/write`, body, headers)
            })
          ).then(() => undefined)
        )
        await getText(`${url}/api/v1/query?${readBack}`, key)
        shardedCpu[side] += cpuOf(side) - before
        if (side === "sluice") shardedCpu.sluiceServer += cpuSecondsOf(server.pid) - serverBefore
      })
    yield* Effect.promise(async () => {
      const minutes = shardBodies[0]!.length
      const half = Math.ceil(minutes / 2)
      for (const [round, [from, to]] of [
        [0, half],
        [half, minutes]
      ].entries()) {
        const order = round === 0 ? ["prometheus", "sluice"] : ["sluice", "prometheus"]
        for (const side of order as Array<keyof typeof targets>)
          shardedSeconds[side] += await sendShards(side, from!, to!)
      }
    })
    console.log(
      `remote write, ${CLIENTS} shards at once (until readable): prometheus ` +
        `${rate(demoSamples, shardedSeconds.prometheus)} samples/s (${shardedSeconds.prometheus.toFixed(2)} s), ` +
        `sluice ${rate(demoSamples, shardedSeconds.sluice)} samples/s (${shardedSeconds.sluice.toFixed(2)} s); ` +
        `ratio sluice/prometheus ${(shardedSeconds.prometheus / shardedSeconds.sluice).toFixed(2)}; ` +
        `acknowledged only: prometheus ${acknowledged.prometheus.toFixed(2)} s, sluice ` +
        `${acknowledged.sluice.toFixed(2)} s; CPU used: prometheus ` +
        `${shardedCpu.prometheus.toFixed(2)} s, sluice ${shardedCpu.sluice.toFixed(2)} s ` +
        `(server ${shardedCpu.sluiceServer.toFixed(2)} s, engine ` +
        `${(shardedCpu.sluice - shardedCpu.sluiceServer).toFixed(2)} s)`
    )

    yield* largeQuery(server, reference)
    yield* metricsDay(server)
  })
)

/**
 * The 10M-sample range query on both sides: the large set written to each (one body at a
 * time, alternating), then the query once per side, with its time, the CPU each side's
 * processes used, and the peak RSS growth of sluice's server and engine workers.
 */
const largeQuery = (
  server: ServerProcess,
  reference: { readonly url: string; readonly pid?: number | undefined }
) =>
  Effect.gen(function* () {
    const sluice = `${server.url}/metrics-compat`
    const sluiceHeaders = { ...REMOTE_WRITE_HEADERS, authorization: `Bearer ${server.key}` }
    const big = bigBodies()
    const written = yield* Effect.promise(() =>
      timed(async () => {
        for (const body of big) {
          await post(`${reference.url}/api/v1/write`, body, REMOTE_WRITE_HEADERS)
          await post(`${sluice}/api/v1/write`, body, sluiceHeaders)
        }
      })
    )
    console.log(
      `large set: ${(BIG_SERIES * BIG_SAMPLES).toLocaleString("en")} samples in ${big.length} bodies written to both sides in ${written.toFixed(1)} s`
    )
    const bigEnd = (BIG_START + BIG_SAMPLES * BIG_STEP_MS) / 1000
    const bigRange = new URLSearchParams({
      query: BIG_QUERY,
      start: String(BIG_START / 1000),
      end: String(bigEnd),
      step: "60"
    })
    const referencePids = () => (reference.pid === undefined ? [] : [reference.pid])
    const sluicePids = () => [server.pid, ...childPids(server.pid)]
    let referenceAnswer = ""
    const referenceCpu = sumOver(referencePids(), cpuSecondsOf)
    const referenceSeconds = yield* Effect.promise(() =>
      timed(async () => {
        referenceAnswer = await getText(`${reference.url}/api/v1/query_range?${bigRange}`)
      })
    )
    const referenceUsed = sumOver(referencePids(), cpuSecondsOf) - referenceCpu
    // A query first waits for every accepted write to be stored: the baseline is taken
    // after that, so the engine's inserts of the large set are not counted as the query's.
    yield* Effect.promise(() =>
      getText(`${sluice}/api/v1/query?query=bench_warm_up&time=${DATA_START / 1000}`, server.key)
    )
    const baseline = rssTree(server.pid)
    let peak = baseline
    // Each side's own peak too: the server's arrays and answer, the engine's read.
    const serverBaseline = rssOf(server.pid)
    let serverPeak = serverBaseline
    const sampler = setInterval(() => {
      peak = Math.max(peak, rssTree(server.pid))
      serverPeak = Math.max(serverPeak, rssOf(server.pid))
    }, 20)
    let answer = ""
    const sluiceCpu = sumOver(sluicePids(), cpuSecondsOf)
    const sluiceSeconds = yield* Effect.promise(() =>
      timed(async () => {
        answer = await getText(`${sluice}/api/v1/query_range?${bigRange}`, server.key)
      })
    )
    const sluiceUsed = sumOver(sluicePids(), cpuSecondsOf) - sluiceCpu
    clearInterval(sampler)
    peak = Math.max(peak, rssTree(server.pid))
    const decode = Schema.decodeUnknownSync(Schema.parseJson(ApiReply))
    const differs = difference(false, decode(referenceAnswer), decode(answer))
    console.log(
      `large range query: ${(BIG_SERIES * BIG_SAMPLES).toLocaleString("en")} samples, '${BIG_QUERY}' at 60 s steps: ` +
        `prometheus ${referenceSeconds.toFixed(2)} s (CPU ${referenceUsed.toFixed(2)} s), ` +
        `sluice ${sluiceSeconds.toFixed(2)} s (CPU ${sluiceUsed.toFixed(2)} s); ratio ` +
        `${(sluiceSeconds / referenceSeconds).toFixed(2)}; answers ` +
        (differs === undefined ? "equal" : `DIFFER: ${differs.slice(0, 200)}`) +
        `; peak RSS growth ${mb(peak - baseline)} (server process and engine workers, from ` +
        `${mb(baseline)}; target < 500 MB; the server alone ${mb(serverPeak - serverBaseline)})`
    )
  })

/** `npm run bench metrics-large`: only the 10M-sample range query, on a server of its own. */
export const metricsLarge = besidePrometheus(
  Effect.gen(function* () {
    const server = yield* startMetricsServer("bench-metrics-large")
    const reference = yield* startReceiver
    // Both sides warm, as in `metrics`: a write and a read of a series the query never names.
    yield* Effect.promise(async () => {
      await warmUp(reference.url, REMOTE_WRITE_HEADERS, DATA_START)
      await warmUp(
        server.metricsUrl,
        { ...REMOTE_WRITE_HEADERS, authorization: `Bearer ${server.key}` },
        DATA_START,
        server.key
      )
    })
    yield* largeQuery(server, reference)
  })
)
