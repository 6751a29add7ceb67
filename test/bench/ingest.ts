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
import { gzipSync } from "node:zlib"
import { Engines } from "../../domain/Engine.js"
import { ClusterId } from "../../domain/Ids.js"
import { command } from "../../src/tables/EngineSql.js"
import * as Layout from "../../src/tables/Layout.js"
import { workerPids } from "../clusters/workerProcesses.js"
import { adminKeyOf, freshDataDir, startServer } from "../support/server.js"
import { cpuReading, median, percentile, roundsOf, timed } from "./clients.js"
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

type Side = "chdb" | "worker" | "http"
const LABELS: Record<Side, string> = {
  chdb: "chDB in this process",
  worker: "engine worker direct",
  http: "sluice over HTTP"
}
const fixed = (n: number) => n.toFixed(2)
const thousands = (n: number) => Math.round(n).toLocaleString("en")

/** CPU seconds this process and the cluster's worker have used so far. */
type CpuReading = () => ReadonlyArray<number>

const ms = (seconds: number, count: number) => fixed((seconds * 1000) / count)

/**
 * Throughput of each side over `batches`, HTTP's and the worker's ratio to chDB, and the
 * CPU used per batch while each side ran, in this process (chDB's side: the engine
 * itself; the others: the bench's clients, and for HTTP the server, which runs here) and
 * in the worker. With every side keeping both cores busy, chDB's CPU per batch over a
 * side's is about the ratio that side can reach, and the split says whose CPU the gap is.
 */
const throughput = async (
  title: string,
  batches: ReadonlyArray<Body>,
  rowsEach: number,
  clients: number,
  sides: Record<Side, Send>,
  cpu: CpuReading,
  target: string
) => {
  const { seconds, used, sent } = await roundsOf(ROUNDS, clients, batches, sides, cpu)
  console.log(title)
  for (const side of ["chdb", "worker", "http"] as const) {
    const total = seconds[side].reduce((a, b) => a + b, 0)
    const ratios = seconds.chdb.map((s, i) => s / seconds[side][i]!)
    console.log(
      `  ${LABELS[side].padEnd(22)} ${thousands((sent * rowsEach) / total).padStart(8)} rows/s` +
        (side === "chdb"
          ? ""
          : `, ×${fixed(median(ratios))} of chDB (median of ${ROUNDS} rounds)`) +
        (side === "http" ? ` (target ≥ ${target})` : "")
    )
  }
  // Both processes, whichever side's work they did: background merges run on past the
  // rounds that caused them, into the next side's, in both engines alike.
  const both = (side: Side) => used[side][0]! + used[side][1]!
  const split = (side: Side) => `${ms(used[side][0]!, sent)} + ${ms(used[side][1]!, sent)}`
  console.log(
    `  CPU ms a batch while each side ran, this process + worker: chDB ${split("chdb")}, ` +
      `worker direct ${split("worker")}, HTTP ${split("http")}; ` +
      `chDB's over each side's: worker ${fixed(both("chdb") / both("worker"))}, HTTP ${fixed(both("chdb") / both("http"))}`
  )
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
        const cpu: CpuReading = cpuReading([worker])

        yield* Effect.promise(async () => {
          let first = 0
          for (const kind of ["json", "ndjson", "gzip"] as const) {
            const batches = Array.from({ length: BATCHES }, (_, b) =>
              bodyOf(kind, (first + b) * RECORDS_PER_BATCH, RECORDS_PER_BATCH)
            )
            first += BATCHES
            const bytes = batches.reduce((n, b) => n + b.bytes.length, 0)
            await throughput(
              `(a) ${BATCHES} ${kind} bodies × ${RECORDS_PER_BATCH} records (${Math.round(bytes / BATCHES / RECORDS_PER_BATCH)} bytes/record as sent), ${CLIENTS} clients`,
              batches,
              RECORDS_PER_BATCH,
              CLIENTS,
              sides,
              cpu,
              "0.85"
            )
          }

          console.log(`(b) small inserts, one client, sequential, medians of ${SMALL_RUNS} (p99)`)
          for (const size of SMALL_SIZES) {
            const body = bodyOf("json", 0, size)
            const took: Record<Side, Array<number>> = { chdb: [], worker: [], http: [] }
            const spent: Record<Side, [number, number]> = {
              chdb: [0, 0],
              worker: [0, 0],
              http: [0, 0]
            }
            const order: Array<Side> = ["chdb", "worker", "http"]
            for (let i = 0; i < SMALL_WARM_UP + SMALL_RUNS; i++) {
              for (const side of [...order.slice(i % 3), ...order.slice(0, i % 3)]) {
                const before = cpu()
                const ms = (await timed(() => sides[side](body))) * 1000
                const after = cpu()
                if (i < SMALL_WARM_UP) continue
                took[side].push(ms)
                spent[side][0] += after[0]! - before[0]!
                spent[side][1] += after[1]! - before[1]!
              }
            }
            const chdbMs = median(took.chdb)
            const line = (side: Side) =>
              `${LABELS[side]} ${fixed(median(took[side]))} ms (${fixed(percentile(took[side], 0.99))})`
            console.log(
              `  ${String(size).padStart(5)} records: ${line("chdb")}; ${line("worker")}; ${line("http")}: ` +
                `×${fixed(median(took.http) / chdbMs)} of chDB (target ≤ 1.5)`
            )
            // The worker's reading counts 10 ms ticks: over 100 inserts, about ±0.3 ms each.
            const cpuOf = (side: Side) =>
              `${ms(spent[side][0], SMALL_RUNS)} + ${ms(spent[side][1], SMALL_RUNS)}`
            console.log(
              `         CPU ms an insert, this process + worker: chDB ${cpuOf("chdb")}, ` +
                `worker direct ${cpuOf("worker")}, HTTP ${cpuOf("http")}`
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
            cpu,
            "0.7"
          )
        })
        yield* Effect.promise(() => measureMemory(server.url, token))
      })
    )
  )
