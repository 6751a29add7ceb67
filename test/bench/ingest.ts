/**
 * Ingest throughput: JSON arrays of 5,000 records (~250 bytes each) posted by 4
 * concurrent HTTP clients, against the same bytes inserted straight into the same
 * engine (chDB, `INSERT … FORMAT JSONAsObject`) with the same concurrency, in one run.
 *
 * The batches are split into rounds; each round runs both sides back to back, in
 * alternating order, and the ratio printed is the median of the rounds' ratios, so
 * background merges and machine noise that drift over the run fall on both sides of
 * a pair alike. The HTTP client is undici's `request` (one keep-alive connection per
 * client): its cost stays out of the server's share of this process's CPU.
 */
import { Context, Effect, Stream } from "effect"
import * as fs from "node:fs"
import { Agent, request } from "undici"
import { Engines, InsertRequest } from "../../domain/Engine.js"
import { ClusterId } from "../../domain/Ids.js"
import { command } from "../../src/tables/EngineSql.js"
import * as Layout from "../../src/tables/Layout.js"
import { adminKeyOf, freshDataDir, startServer } from "../support/server.js"
import { measureMemory } from "./ingestMemory.js"
import { workerPids } from "../clusters/workerProcesses.js"
import { pool, timed } from "./clients.js"

const RECORDS_PER_BATCH = 5_000
const BATCHES = 96
const CLIENTS = 4

const record = (i: number) => ({
  timestamp: new Date(1_700_000_000_000 + i * 1000).toISOString(),
  level: ["info", "warn", "error"][i % 3],
  service: `service-${i % 17}`,
  request: { method: "GET", path: `/api/items/${i}`, status: 200 + (i % 5), duration_ms: i % 997 },
  client: { ip: `10.0.${i % 255}.${(i * 7) % 255}`, geo: { country: ["DE", "FR", "US"][i % 3] } },
  message: "handled request for an item in the catalogue"
})

const batches = Array.from({ length: BATCHES }, (_, b) =>
  new TextEncoder().encode(
    JSON.stringify(
      Array.from({ length: RECORDS_PER_BATCH }, (_, i) => record(b * RECORDS_PER_BATCH + i))
    )
  )
)

/** CPU seconds (user + system) a process has used, from /proc (Linux). */
const cpuSecondsOf = (pid: number) => {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ")
  return (Number(fields[11]) + Number(fields[12])) / 100
}

const ROUNDS = 8

export const ingest = () =>
  Effect.runPromise(
    Effect.scoped(
      Effect.gen(function* () {
        const server = yield* startServer(freshDataDir("bench-ingest"))
        const token = adminKeyOf(server)
        const engines = Context.get(server.context, Engines)
        const keys = yield* Effect.promise(() =>
          fetch(`${server.url}/v1/keys`, { headers: { authorization: `Bearer ${token}` } }).then(
            (r) => r.json() as Promise<{ cluster: { id: string } }>
          )
        )
        const engine = yield* engines.forCluster(ClusterId.make(keys.cluster.id))
        yield* command(engine, Layout.createTableSql("default", "direct", "bench"))
        const rows = BATCHES * RECORDS_PER_BATCH
        const bytes = batches.reduce((n, b) => n + b.length, 0)
        console.log(
          `${BATCHES} arrays × ${RECORDS_PER_BATCH} records, ${Math.round(bytes / rows)} bytes/record, ${CLIENTS} clients`
        )

        const directBatch = (batch: Uint8Array) =>
          Effect.runPromise(
            engine.insert(
              new InsertRequest({
                database: "default",
                table: "direct",
                format: Layout.INSERT_FORMAT,
                columns: [Layout.RAW_INPUT],
                queryId: crypto.randomUUID()
              }),
              Stream.make(batch)
            )
          ).then(() => undefined)
        const dispatcher = new Agent({ connections: CLIENTS })
        yield* Effect.addFinalizer(() => Effect.promise(() => dispatcher.close()))
        const httpBatch = async (batch: Uint8Array) => {
          const reply = await request(`${server.url}/v1/tables/bench`, {
            method: "POST",
            dispatcher,
            headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
            body: batch
          })
          const text = await reply.body.text()
          if (reply.statusCode !== 200)
            throw new Error(`insert failed: ${reply.statusCode} ${text}`)
        }
        const [worker] = workerPids(keys.cluster.id)
        if (worker === undefined) throw new Error("no engine worker found")
        // CPU seconds each side cost this process (server and clients) and the engine.
        const cpu = { direct: { service: 0, engine: 0 }, http: { service: 0, engine: 0 } }
        const measured = async (side: keyof typeof cpu, run: () => Promise<void>) => {
          const service = process.cpuUsage()
          const engine = cpuSecondsOf(worker)
          const seconds = await timed(run)
          const used = process.cpuUsage(service)
          cpu[side].service += (used.user + used.system) / 1e6
          cpu[side].engine += cpuSecondsOf(worker) - engine
          return seconds
        }
        let direct = 0
        let http = 0
        let busy = 0
        const ratios: Array<number> = []
        const perRound = BATCHES / ROUNDS
        for (let round = 0; round < ROUNDS; round++) {
          const some = batches.slice(round * perRound, (round + 1) * perRound)
          let directRound = 0
          let httpRound = 0
          const sides = [
            async () => {
              directRound = await measured("direct", () => pool(CLIENTS, some, directBatch))
            },
            async () => {
              const before = performance.eventLoopUtilization()
              httpRound = await measured("http", () => pool(CLIENTS, some, httpBatch))
              busy += performance.eventLoopUtilization(before).utilization / ROUNDS
            }
          ]
          if (round % 2 === 1) sides.reverse()
          for (const side of sides) yield* Effect.promise(side)
          direct += directRound
          http += httpRound
          ratios.push(directRound / httpRound)
        }
        const rate = (seconds: number) => Math.round(rows / seconds)
        console.log(
          `engine direct (chDB): ${rate(direct).toLocaleString("en")} rows/s (${direct.toFixed(2)} s)`
        )
        console.log(
          `sluice over HTTP:     ${rate(http).toLocaleString("en")} rows/s (${http.toFixed(2)} s)`
        )
        const sorted = [...ratios].sort((a, b) => a - b)
        const medianRatio = (sorted[ROUNDS / 2 - 1]! + sorted[ROUNDS / 2]!) / 2
        console.log(
          `ratio http/direct:    ${medianRatio.toFixed(2)} median of ${ROUNDS} rounds (${sorted.map((r) => r.toFixed(2)).join(" ")}); ${(direct / http).toFixed(2)} over the whole run (target ≥ 0.70)`
        )
        console.log(`event loop busy during HTTP: ${(busy * 100).toFixed(0)}%`)
        const perBatch = (seconds: number) => `${((seconds * 1000) / BATCHES).toFixed(0)} ms`
        console.log(
          `CPU per batch, direct: this process ${perBatch(cpu.direct.service)}, engine ${perBatch(cpu.direct.engine)}; ` +
            `HTTP: this process ${perBatch(cpu.http.service)} (server and client), engine ${perBatch(cpu.http.engine)}`
        )
        yield* Effect.promise(() => measureMemory(server.url, token))
      })
    )
  )
