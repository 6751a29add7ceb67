/**
 * When may the metrics-app acknowledge a remote write, once a node's loss must not lose
 * it? Three ways, each with 4 senders writing 2,500 samples a write to one ClickHouse
 * test server, per write the latency until it is acknowledged, and the parts made:
 * - `log then batch`: appended to a file on the node's disk and acknowledged, the engine
 *   taking the accepted writes in batches behind (the embedded service's way; a write is
 *   lost with the node's disk);
 * - `group commit`: acknowledged once the insert holding it has ended, the writes that
 *   arrive meanwhile going together in the next insert (GroupCommit.ts, waited for);
 * - `async insert`: each write its own `INSERT` with `async_insert=1,
 *   wait_for_async_insert=1`, the server gathering them and answering once flushed.
 */
import { createClient } from "@clickhouse/client"
import type { ClickHouseClient } from "@clickhouse/client"
import { Effect } from "effect"
import * as fs from "node:fs"
import * as path from "node:path"
import { Readable } from "node:stream"
import { startClickHouseServer } from "../support/clickhouseServer.js"
import { freshDataDir } from "../support/server.js"
import { median, percentile } from "./clients.js"

const SENDERS = 4
const WRITES = 100
const SAMPLES = 2_500

interface Sample {
  readonly series: number
  readonly t: number
  readonly v: number
}

const writeOf = (sender: number, n: number): ReadonlyArray<Sample> =>
  Array.from({ length: SAMPLES }, (_, i) => ({
    series: sender * SAMPLES + i,
    t: 1_700_000_000_000 + n * 15_000,
    v: n + i / SAMPLES
  }))

const rowsOf = (samples: ReadonlyArray<Sample>) =>
  samples.map((s) => `${s.series}\t${s.t}\t${s.v}`).join("\n") + "\n"

/** Acknowledges a write (its rows as the engine takes them) by its own rule. */
type Way = (sender: number, rows: string) => Promise<void>

const insert = (client: ClickHouseClient, table: string, text: string, settings = {}) =>
  client
    .exec({
      query: `INSERT INTO ${table} FORMAT TabSeparated`,
      values: Readable.from([Buffer.from(text)]),
      clickhouse_settings: settings
    })
    .then((result) => void result.stream.resume())

/** Writes queued while an insert runs go together in the next; each waits for its own. */
const groupCommit = (client: ClickHouseClient, table: string) => {
  let waiting: Array<{ text: string; done: () => void; failed: (e: unknown) => void }> = []
  let running = false
  const next = async (): Promise<void> => {
    if (running || waiting.length === 0) return
    running = true
    const batch = waiting
    waiting = []
    try {
      await insert(client, table, batch.map((w) => w.text).join(""))
      batch.forEach((w) => w.done())
    } catch (error) {
      batch.forEach((w) => w.failed(error))
    }
    running = false
    await next()
  }
  const way: Way = (_sender, rows) =>
    new Promise<void>((done, failed) => {
      waiting.push({ text: rows, done, failed })
      void next()
    })
  return way
}

const logThenBatch = (client: ClickHouseClient, table: string, dir: string) => {
  const fds = Array.from({ length: SENDERS }, (_, i) =>
    fs.openSync(path.join(dir, `sender-${i}.wal`), "a")
  )
  const behind = groupCommit(client, table)
  const pending: Array<Promise<void>> = []
  const way: Way = async (sender, rows) => {
    const bytes = Buffer.from(rows)
    const header = Buffer.alloc(4)
    header.writeUInt32LE(bytes.length)
    await new Promise<void>((done, failed) =>
      fs.writev(fds[sender]!, [header, bytes], (error) => (error ? failed(error) : done()))
    )
    pending.push(behind(sender, rows))
  }
  const settle = () => Promise.all(pending).then(() => fds.forEach((fd) => fs.closeSync(fd)))
  return { way, settle }
}

const partsOf = async (client: ClickHouseClient, table: string) => {
  const result = await client.query({
    query: `SELECT count() AS n FROM system.parts WHERE table = '${table}' AND active`,
    format: "JSONEachRow"
  })
  const rows = await result.json<{ n: string }>()
  return Number(rows[0]?.n ?? 0)
}

const run = async (way: Way) => {
  const latencies: Array<number> = []
  const start = performance.now()
  await Promise.all(
    Array.from({ length: SENDERS }, async (_, sender) => {
      for (let n = 0; n < WRITES; n++) {
        const rows = rowsOf(writeOf(sender, n))
        const sent = performance.now()
        await way(sender, rows)
        latencies.push(performance.now() - sent)
      }
    })
  )
  return { latencies, seconds: (performance.now() - start) / 1000 }
}

export const scaleWrites = () =>
  Effect.runPromise(
    Effect.scoped(
      Effect.gen(function* () {
        const server = yield* startClickHouseServer
        const client = createClient({ url: server.url, max_open_connections: SENDERS + 1 })
        yield* Effect.addFinalizer(() => Effect.promise(() => client.close()))
        const dir = freshDataDir("bench-writelog")
        return yield* Effect.promise(async () => {
          const tables = ["log_then_batch", "group_commit", "async_insert"]
          for (const table of tables) {
            await client.command({
              query: `CREATE TABLE ${table} (series UInt64, t Int64, v Float64) ENGINE = MergeTree ORDER BY (series, t)`
            })
            // Every part an insert made stays, to be counted.
            await client.command({ query: `SYSTEM STOP MERGES ${table}` })
          }
          const logged = logThenBatch(client, "log_then_batch", dir)
          const ways: Record<string, { way: Way; settle?: () => Promise<unknown> }> = {
            "log then batch": logged,
            "group commit": { way: groupCommit(client, "group_commit") },
            "async insert": {
              way: (_sender, rows) =>
                insert(client, "async_insert", rows, {
                  async_insert: 1,
                  wait_for_async_insert: 1
                })
            }
          }
          console.log(
            `${SENDERS} senders × ${WRITES} writes of ${SAMPLES} samples, one ClickHouse server`
          )
          console.log("| acknowledged after | median ms | p99 ms | samples/s | parts made |")
          console.log("| --- | --- | --- | --- | --- |")
          const names = Object.keys(ways)
          for (const [index, name] of names.entries()) {
            const { way, settle } = ways[name]!
            const { latencies, seconds } = await run(way)
            await settle?.()
            const parts = await partsOf(client, tables[index]!)
            console.log(
              `| ${name} | ${median(latencies).toFixed(2)} | ${percentile(latencies, 0.99).toFixed(2)} | ${Math.round((SENDERS * WRITES * SAMPLES) / seconds).toLocaleString("en")} | ${parts} |`
            )
          }
        })
      })
    )
  )
