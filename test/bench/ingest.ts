/**
 * Ingest against the physical limit: the same bytes sent over HTTP, straight into the
 * cluster's engine worker, and into chDB opened in this process (`ingestSides.ts`), in
 * one run:
 * (a) large batches: 4 clients posting JSON arrays of 5,000 records (~250 bytes each),
 *     also as NDJSON and as gzip-compressed JSON;
 * (b) small-insert latency: one client, sequential, 1, 100 and 1,000 records, medians;
 * (c) many small clients: 16 concurrent clients posting 100-record arrays.
 *
 * Throughput runs in rounds; each round sends its share through every side, the first
 * side rotating, and a ratio printed is the median of the rounds' ratios, so background
 * merges and machine noise that drift over the run fall on every side alike. Latency
 * interleaves the sides insert by insert. The HTTP client is undici's `request`.
 */
import { Context, Effect } from "effect"
import * as fs from "node:fs"
import { gzipSync } from "node:zlib"
import { Engines } from "../../domain/Engine.js"
import { ClusterId } from "../../domain/Ids.js"
import { command } from "../../src/tables/EngineSql.js"
import * as Layout from "../../src/tables/Layout.js"
import { workerPids } from "../clusters/workerProcesses.js"
import { adminKeyOf, freshDataDir, startServer } from "../support/server.js"
import { median, percentile, roundsOf, timed } from "./clients.js"
import { measureMemory } from "./ingestMemory.js"
import type { Body, Send } from "./ingestSides.js"
import { inProcessChdb, overHttp, workerEngine } from "./ingestSides.js"

const RECORDS_PER_BATCH = 5_000
const BATCHES = 64
const CLIENTS = 4
const ROUNDS = 8
const SMALL_SIZES = [1, 100, 1_000]
const SMALL_RUNS = 100
const SMALL_WARM_UP = 20
const MANY_CLIENTS = 16
const MANY_INSERTS = 640
const MANY_RECORDS = 100

const record = (i: number) => ({
  timestamp: new Date(1_700_000_000_000 + i * 1000).toISOString(),
  level: ["info", "warn", "error"][i % 3],
  service: `service-${i % 17}`,
  request: { method: "GET", path: `/api/items/${i}`, status: 200 + (i % 5), duration_ms: i % 997 },
  client: { ip: `10.0.${i % 255}.${(i * 7) % 255}`, geo: { country: ["DE", "FR", "US"][i % 3] } },
  message: "handled request for an item in the catalogue"
})

const records = (from: number, count: number) =>
  Array.from({ length: count }, (_, i) => record(from + i))
const encode = (text: string) => new TextEncoder().encode(text)
const bodyOf = (kind: Body["kind"], from: number, count: number): Body => {
  const some = records(from, count)
  if (kind === "ndjson")
    return { kind, bytes: encode(some.map((r) => JSON.stringify(r)).join("\n")) }
  const array = encode(JSON.stringify(some))
  return { kind, bytes: kind === "gzip" ? gzipSync(array, { level: 1 }) : array }
}

/** CPU seconds (user + system) a process has used, from /proc (Linux). */
const cpuSecondsOf = (pid: number) => {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ")
  return (Number(fields[11]) + Number(fields[12])) / 100
}

type Side = "chdb" | "worker" | "http"
const LABELS: Record<Side, string> = {
  chdb: "chDB in this process",
  worker: "engine worker direct",
  http: "sluice over HTTP"
}
const fixed = (n: number) => n.toFixed(2)
const thousands = (n: number) => Math.round(n).toLocaleString("en")

/** Throughput of each side over `batches`, and HTTP's and the worker's ratio to chDB. */
const throughput = async (
  title: string,
  batches: ReadonlyArray<Body>,
  rowsEach: number,
  clients: number,
  sides: Record<Side, Send>,
  target: string
) => {
  const seconds = await roundsOf(ROUNDS, clients, batches, sides)
  const rowsPerRound = Math.floor(batches.length / ROUNDS) * rowsEach
  console.log(title)
  for (const side of ["chdb", "worker", "http"] as const) {
    const total = seconds[side].reduce((a, b) => a + b, 0)
    const ratios = seconds.chdb.map((s, i) => s / seconds[side][i]!)
    console.log(
      `  ${LABELS[side].padEnd(22)} ${thousands((rowsPerRound * ROUNDS) / total).padStart(8)} rows/s` +
        (side === "chdb"
          ? ""
          : `, ×${fixed(median(ratios))} of chDB (median of ${ROUNDS} rounds)`) +
        (side === "http" ? ` (target ≥ ${target})` : "")
    )
  }
}

export const ingest = () =>
  Effect.runPromise(
    Effect.scoped(
      Effect.gen(function* () {
        const server = yield* startServer(freshDataDir("bench-ingest"))
        const token = adminKeyOf(server)
        const keys = yield* Effect.promise(() =>
          fetch(`${server.url}/v1/keys`, { headers: { authorization: `Bearer ${token}` } }).then(
            (r) => r.json() as Promise<{ cluster: { id: string } }>
          )
        )
        const engine = yield* Context.get(server.context, Engines).forCluster(
          ClusterId.make(keys.cluster.id)
        )
        yield* command(engine, Layout.createTableSql("default", "direct", ""))
        const chdb = yield* Effect.acquireRelease(
          Effect.promise(() => inProcessChdb(freshDataDir("bench-ingest-chdb"), "bench")),
          (opened) => Effect.promise(opened.close)
        )
        const http = yield* Effect.acquireRelease(
          Effect.sync(() => overHttp(server.url, token, "bench", MANY_CLIENTS)),
          (client) => Effect.promise(client.close)
        )
        const [worker] = workerPids(keys.cluster.id)
        if (worker === undefined) throw new Error("no engine worker found")
        const sides: Record<Side, Send> = {
          chdb: chdb.send,
          worker: workerEngine(engine, "direct"),
          http: http.send
        }

        yield* Effect.promise(async () => {
          let first = 0
          for (const kind of ["json", "ndjson", "gzip"] as const) {
            const batches = Array.from({ length: BATCHES }, (_, b) =>
              bodyOf(kind, (first + b) * RECORDS_PER_BATCH, RECORDS_PER_BATCH)
            )
            first += BATCHES
            const bytes = batches.reduce((n, b) => n + b.bytes.length, 0)
            const cpu = { service: process.cpuUsage(), engine: cpuSecondsOf(worker) }
            await throughput(
              `(a) ${BATCHES} ${kind} bodies × ${RECORDS_PER_BATCH} records (${Math.round(bytes / BATCHES / RECORDS_PER_BATCH)} bytes/record as sent), ${CLIENTS} clients`,
              batches,
              RECORDS_PER_BATCH,
              CLIENTS,
              sides,
              "0.85"
            )
            const used = process.cpuUsage(cpu.service)
            console.log(
              `  CPU over all sides: this process ${fixed((used.user + used.system) / 1e6)} s, engine worker ${fixed(cpuSecondsOf(worker) - cpu.engine)} s`
            )
          }

          console.log(`(b) small inserts, one client, sequential, medians of ${SMALL_RUNS} (p99)`)
          for (const size of SMALL_SIZES) {
            const body = bodyOf("json", 0, size)
            const took: Record<Side, Array<number>> = { chdb: [], worker: [], http: [] }
            const order: Array<Side> = ["chdb", "worker", "http"]
            for (let i = 0; i < SMALL_WARM_UP + SMALL_RUNS; i++) {
              for (const side of [...order.slice(i % 3), ...order.slice(0, i % 3)]) {
                const ms = (await timed(() => sides[side](body))) * 1000
                if (i >= SMALL_WARM_UP) took[side].push(ms)
              }
            }
            const chdbMs = median(took.chdb)
            const line = (side: Side) =>
              `${LABELS[side]} ${fixed(median(took[side]))} ms (${fixed(percentile(took[side], 0.99))})`
            console.log(
              `  ${String(size).padStart(5)} records: ${line("chdb")}; ${line("worker")}; ${line("http")}: ` +
                `×${fixed(median(took.http) / chdbMs)} of chDB (target ≤ 1.5)`
            )
          }

          const small = Array.from({ length: MANY_INSERTS }, (_, i) =>
            bodyOf("json", i * MANY_RECORDS, MANY_RECORDS)
          )
          await throughput(
            `(c) ${MANY_CLIENTS} concurrent clients, ${MANY_INSERTS} inserts of ${MANY_RECORDS} records`,
            small,
            MANY_RECORDS,
            MANY_CLIENTS,
            sides,
            "0.7"
          )
        })
        yield* Effect.promise(() => measureMemory(server.url, token))
      })
    )
  )
