/**
 * Sluice as more than one node, in one run: two sluice processes (`npm start`'s command)
 * on one PostgreSQL (`SLUICE_TEST_POSTGRES_URL`) and one ClickHouse test server, against
 * `@clickhouse/client` straight on that server.
 * (a) ingest: 4 clients posting JSON arrays of 5,000 records, through one node, through
 *     both nodes (clients alternating), and as the same bytes straight on the server
 *     (`INSERT … (__raw) FORMAT JSONAsObject`) into a copy of sluice's table (its DDL as
 *     the server shows it), in rounds whose first side rotates; rows/s and the CPU each
 *     process used per batch;
 * (b) a small query, one client, interleaved: through node 0, through the two nodes in
 *     turn, and straight on the server; median and p99.
 * On two cores every side keeps both busy, so two nodes cannot do twice the work of one:
 * the CPU columns say where the time went.
 */
import { createClient } from "@clickhouse/client"
import type { ClickHouseClient } from "@clickhouse/client"
import { Effect } from "effect"
import * as fs from "node:fs"
import { Readable } from "node:stream"
import { Agent, request } from "undici"
import * as Layout from "../../src/tables/Layout.js"
import { startNodes } from "../support/nodes.js"
import { cpuReading, cpuSecondsOf, median, percentile, roundsOf } from "./clients.js"

const RECORDS_PER_BATCH = 5_000
const BATCHES = 64
const CLIENTS = 4
const ROUNDS = 4
const SMALL = "SELECT number, toString(number) AS s FROM numbers(10)"
const QUERY_RUNS = 500
const QUERY_WARM_UP = 100
const TABLE = "scale_events"
const DIRECT_DATABASE = "bench_direct"

const record = (i: number) => ({
  timestamp: new Date(1_700_000_000_000 + i * 1000).toISOString(),
  level: ["info", "warn", "error"][i % 3],
  service: `service-${i % 17}`,
  request: { method: "GET", path: `/api/items/${i}`, status: 200 + (i % 5), duration_ms: i % 997 },
  message: "handled request for an item in the catalogue"
})

const batchOf = (n: number) =>
  new TextEncoder().encode(
    JSON.stringify(
      Array.from({ length: RECORDS_PER_BATCH }, (_, i) => record(n * RECORDS_PER_BATCH + i))
    )
  )

/** The process serving `dataDir`'s ClickHouse test server (its launcher holds the engine). */
const clickhousePid = (dataDir: string) => {
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const cmdline = fs.readFileSync(`/proc/${entry}/cmdline`, "utf8")
      if (cmdline.includes("clickhouse-server.py") && cmdline.includes(dataDir))
        return Number(entry)
    } catch {
      // gone meanwhile
    }
  }
  throw new Error("the ClickHouse test server's process was not found")
}

/**
 * The direct side's table: sluice's own, as the server shows it (engine, ORDER BY, settings,
 * both constraints, its columns), under another database. Its known-paths check still reads
 * sluice's known-paths table, so each side's rows go through the same check against the same
 * paths; a table made from the layout alone lacked that check, a lighter insert than sluice's.
 */
const sluiceTableCopy = async (client: ClickHouseClient) => {
  const found = await client.query({
    query: `SELECT database FROM system.tables WHERE name = {table:String} AND database != {direct:String}`,
    query_params: { table: TABLE, direct: DIRECT_DATABASE },
    format: "JSONEachRow"
  })
  const [sluice, ...others] = await found.json<{ database: string }>()
  if (sluice === undefined || others.length > 0)
    throw new Error(`expected one table ${TABLE} made by sluice`)
  const shown = await client.query({
    query: `SHOW CREATE TABLE ${Layout.qualified(sluice.database, TABLE)}`,
    format: "JSONEachRow"
  })
  const [ddl] = await shown.json<{ statement: string }>()
  const header = /^CREATE TABLE \S+/
  if (ddl === undefined || !header.test(ddl.statement))
    throw new Error("SHOW CREATE TABLE answered no CREATE TABLE statement")
  await client.command({ query: `CREATE DATABASE IF NOT EXISTS ${DIRECT_DATABASE}` })
  await client.command({
    query: ddl.statement.replace(header, `CREATE TABLE ${Layout.qualified(DIRECT_DATABASE, TABLE)}`)
  })
  const constraints = [...ddl.statement.matchAll(/CONSTRAINT (\S+)/g)].map((m) => m[1])
  console.log(`direct side's table: sluice's DDL, constraints ${constraints.join(", ")}`)
}

const fixed = (n: number, digits = 2) => n.toFixed(digits)
const thousands = (n: number) => Math.round(n).toLocaleString("en")

const postBatch = (dispatcher: Agent, url: string, token: string) => async (bytes: Uint8Array) => {
  const reply = await request(`${url}/v1/tables/${TABLE}`, {
    method: "POST",
    dispatcher,
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: bytes
  })
  const text = await reply.body.text()
  if (reply.statusCode !== 200) throw new Error(`insert failed: ${reply.statusCode} ${text}`)
}

const querySluice = (dispatcher: Agent, url: string, token: string) => async () => {
  const reply = await request(`${url}/v1/query`, {
    method: "POST",
    dispatcher,
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify({ sql: SMALL, format: "JSONEachRow" })
  })
  const text = await reply.body.text()
  if (reply.statusCode !== 200) throw new Error(`query failed: ${reply.statusCode} ${text}`)
}

export const scale = () => {
  if ((process.env.SLUICE_TEST_POSTGRES_URL ?? "") === "") {
    console.log("bench scale needs a PostgreSQL: set SLUICE_TEST_POSTGRES_URL (.ci/run sets it).")
    return Promise.resolve()
  }
  return Effect.runPromise(
    Effect.scoped(
      Effect.gen(function* () {
        const nodes = yield* startNodes(2)
        const token = nodes.admin.key
        const server = clickhousePid(nodes.clickhouse.dataDir)
        const client = createClient({ url: nodes.clickhouse.url, max_open_connections: CLIENTS })
        yield* Effect.addFinalizer(() => Effect.promise(() => client.close()))
        const agents = [new Agent({ connections: CLIENTS }), new Agent({ connections: CLIENTS })]
        yield* Effect.addFinalizer(() =>
          Effect.promise(() => Promise.all(agents.map((a) => a.close())))
        )
        return yield* Effect.promise(async () => {
          const direct = async (bytes: Uint8Array) => {
            await client
              .exec({
                query: `INSERT INTO ${Layout.qualified(DIRECT_DATABASE, TABLE)} (${Layout.RAW_INPUT}) FORMAT ${Layout.INSERT_FORMAT}`,
                values: Readable.from([Buffer.from(bytes)])
              })
              .then((result) => result.stream.resume())
          }
          const viaNode = [0, 1].map((i) => postBatch(agents[i]!, nodes.url(i), token))
          let turn = 0
          const sides = {
            "one node": viaNode[0]!,
            "two nodes": (bytes: Uint8Array) => viaNode[turn++ % 2]!(bytes),
            "ClickHouse direct": direct
          }
          const batches = Array.from({ length: BATCHES }, (_, n) => batchOf(n))
          // The table and its columns exist before the clock starts.
          await viaNode[0]!(batches[0]!)
          await viaNode[1]!(batches[1]!)
          await sluiceTableCopy(client)
          await direct(batches[0]!)
          const pids = [nodes.pid(0), nodes.pid(1), server]
          const { seconds, used, sent } = await roundsOf(
            ROUNDS,
            CLIENTS,
            batches,
            sides,
            cpuReading(pids)
          )
          const rows = sent * RECORDS_PER_BATCH
          const rate = (name: keyof typeof sides) => rows / seconds[name].reduce((a, b) => a + b, 0)
          console.log(
            `ingest: ${CLIENTS} clients, ${sent} batches of ${RECORDS_PER_BATCH} records (${fixed(batches[0]!.length / 1024 / 1024)} MiB JSON each), ${ROUNDS} rounds`
          )
          console.log(
            "| side | rows/s | ratio to direct | CPU ms per batch: bench, node 0, node 1, ClickHouse |"
          )
          console.log("| --- | --- | --- | --- |")
          for (const name of Object.keys(sides) as Array<keyof typeof sides>) {
            const cpu = used[name].map((s) => fixed((s * 1000) / sent, 0)).join(", ")
            console.log(
              `| ${name} | ${thousands(rate(name))} | ${fixed(rate(name) / rate("ClickHouse direct"))} | ${cpu} |`
            )
          }

          const queries = [0, 1].map((i) => querySluice(agents[i]!, nodes.url(i), token))
          const directQuery = async () => {
            const result = await client.query({ query: SMALL, format: "JSONEachRow" })
            await result.text()
          }
          let queryTurn = 0
          const querySides = {
            "one node": queries[0]!,
            "two nodes": () => queries[queryTurn++ % 2]!(),
            "ClickHouse direct": directQuery
          }
          const times = Object.fromEntries(
            Object.keys(querySides).map((name) => [name, [] as Array<number>])
          ) as Record<keyof typeof querySides, Array<number>>
          const cpuBefore = cpuReading(pids)()
          for (let run = 0; run < QUERY_WARM_UP + QUERY_RUNS; run++) {
            for (const name of Object.keys(querySides) as Array<keyof typeof querySides>) {
              const start = performance.now()
              await querySides[name]()
              if (run >= QUERY_WARM_UP) times[name].push(performance.now() - start)
            }
          }
          const cpuAfter = cpuReading(pids)()
          console.log(`small query (${SMALL}), one client, ${QUERY_RUNS} runs interleaved`)
          console.log("| side | median ms | p99 ms | median ratio to direct |")
          console.log("| --- | --- | --- | --- |")
          const direct50 = median(times["ClickHouse direct"])
          for (const name of Object.keys(querySides) as Array<keyof typeof querySides>) {
            console.log(
              `| ${name} | ${fixed(median(times[name]))} | ${fixed(percentile(times[name], 0.99))} | ${fixed(median(times[name]) / direct50)} |`
            )
          }
          const total = cpuAfter.map((now, i) => fixed(now - cpuBefore[i]!))
          console.log(
            `CPU s over the query runs (all sides): bench ${total[0]}, node 0 ${total[1]}, node 1 ${total[2]}, ClickHouse ${total[3]}; ClickHouse total so far ${fixed(cpuSecondsOf(server))}`
          )
        })
      })
    )
  )
}
