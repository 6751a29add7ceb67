/**
 * Query overhead and memory, in one run against one in-process server:
 * (a) 1,000 small queries over HTTP vs the same queries straight to the cluster's engine
 *     (its worker process, as the service reaches it), interleaved: median added
 *     latency;
 * (b) RSS growth while a 10-million-row `JSONEachRow` result streams over HTTP;
 * (c) the same small query on chDB opened in this process, so what the worker hop
 *     costs is visible too. Last, because chDB's threads in this process slow what
 *     runs beside them.
 *
 * The HTTP client of the target figure is `minimalHttp.ts`, a keep-alive HTTP/1.1 client
 * that does no more than a load generator such as wrk, in a process of its own
 * (`remoteClient.ts`) as a service's clients are, so the figure is the server's cost.
 * Two more figures give the context: undici (Node's leanest client library) in that
 * process, and the minimal client in this process, where its work and the server's work
 * after each response share one thread with the server.
 */
import { createChdbConnection } from "chdb/connection"
import { Context, Effect } from "effect"
import { fork } from "node:child_process"
import { fileURLToPath } from "node:url"
import { Engines, EngineQuery } from "../../domain/Engine.js"
import { ClusterId } from "../../domain/Ids.js"
import { adminKeyOf, freshDataDir, startServer } from "../support/server.js"
import { connectMinimal } from "./minimalHttp.js"
import type { RemoteCall, RemoteReply } from "./remoteClient.js"

const SMALL = "SELECT number, toString(number) AS s FROM numbers(10)"
const RUNS = 1_000
const WARM_UP = 1_000
const BIG_ROWS = 10_000_000
const MAX_RESULT_BYTES = 10 * 1024 * 1024 * 1024
const BIG_TIMEOUT_SECONDS = 600

const median = (values: ReadonlyArray<number>) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]!
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`

export const query = () =>
  Effect.runPromise(
    Effect.scoped(
      Effect.gen(function* () {
        // The 10-million-row stream takes longer than the default 30 s query timeout on a
        // loaded machine; the timeout then ends the response midway ("other side closed").
        const server = yield* startServer(freshDataDir("bench-query"), {
          SLUICE_QUERY_MAX_RESULT_BYTES: String(MAX_RESULT_BYTES),
          SLUICE_QUERY_TIMEOUT_SECONDS: String(BIG_TIMEOUT_SECONDS)
        })
        const token = adminKeyOf(server)
        const keys = yield* Effect.promise(() =>
          fetch(`${server.url}/v1/keys`, { headers: { authorization: `Bearer ${token}` } }).then(
            (r) => r.json() as Promise<{ cluster: { id: string } }>
          )
        )
        const engine = yield* Context.get(server.context, Engines).forCluster(
          ClusterId.make(keys.cluster.id)
        )
        const client = fork(fileURLToPath(new URL("./remoteClient.ts", import.meta.url)), [
          server.url,
          token
        ])
        yield* Effect.addFinalizer(() => Effect.sync(() => client.disconnect()))
        yield* Effect.promise(() => new Promise((ready) => client.once("message", ready)))
        const remote = (call: RemoteCall) =>
          new Promise<number>((resolve, reject) => {
            client.once("message", (reply: RemoteReply) =>
              "error" in reply
                ? reject(new Error(reply.error))
                : reply.status === 200
                  ? resolve(reply.ms)
                  : reject(new Error(`query failed: ${reply.status}`))
            )
            client.send(call)
          })
        const local = yield* Effect.acquireRelease(
          Effect.promise(() => connectMinimal(server.url)),
          (connection) => Effect.sync(() => connection.close())
        )
        const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" }
        const post = (path: string, body: unknown) =>
          local.post(path, headers, JSON.stringify(body))
        const overHttp = async (sql: string, format: string) => {
          const reply = await post("/v1/query", { sql, format })
          if (reply.status !== 200) throw new Error(`query failed: ${reply.status} ${reply.body}`)
        }
        // The same gate as a query (authentication, policy, database selection), no engine.
        const unknownCancel = async () => {
          await post("/v1/query/cancel", { query_id: "none" })
        }

        // The call the service makes for a JSON result (`queryWhole`), from this process.
        const direct = (sql: string, format: string) =>
          Effect.runPromise(
            engine.queryWhole(
              new EngineQuery({
                sql,
                format,
                queryId: crypto.randomUUID(),
                settings: { readonly: 1 }
              }),
              MAX_RESULT_BYTES
            )
          )
        const timed = async (run: () => Promise<unknown>) => {
          const start = performance.now()
          await run()
          return performance.now() - start
        }

        let apartTimes: Array<number> = []
        yield* Effect.promise(async () => {
          // Steady state, not warm-up: V8 keeps optimizing the request path for a thousand
          // or so requests (the median fell ~0.5 ms from the first thousand to the third).
          const query = { path: "/v1/query", body: { sql: SMALL, format: "JSON" } }
          const minimal: RemoteCall = { client: "minimal", ...query }
          const undici: RemoteCall = { client: "undici", ...query }
          for (let i = 0; i < WARM_UP; i++) {
            await remote(minimal)
            await direct(SMALL, "JSON")
            await remote(undici)
            await overHttp(SMALL, "JSON")
            await unknownCancel()
          }
          const apart: Array<number> = []
          const engineOnly: Array<number> = []
          const apartUndici: Array<number> = []
          const http: Array<number> = []
          const gate: Array<number> = []
          for (let i = 0; i < RUNS; i++) {
            apart.push(await remote(minimal))
            engineOnly.push(await timed(() => direct(SMALL, "JSON")))
            apartUndici.push(await remote(undici))
            http.push(await timed(() => overHttp(SMALL, "JSON")))
            gate.push(await timed(unknownCancel))
          }
          apartTimes = apart
          const engine = median(engineOnly)
          const line = (label: string, ms: number, note = "") =>
            console.log(
              `${label.padEnd(50)} ${ms.toFixed(2)} ms, added ${(ms - engine).toFixed(2)} ms${note}`
            )
          console.log(`${RUNS} small queries (JSON, 10 rows), interleaved, medians`)
          console.log(`${"cluster engine direct:".padEnd(50)} ${engine.toFixed(2)} ms`)
          line("sluice HTTP, minimal client in its own process:", median(apart), " (target ≤ 2 ms)")
          line("sluice HTTP, undici client in its own process:", median(apartUndici))
          line("sluice HTTP, minimal client in this process:", median(http))
          console.log(
            `a cancel of an unknown id (HTTP, auth, policy, database selection, no engine): ${median(gate).toFixed(2)} ms`
          )
        })

        yield* Effect.promise(async () => {
          globalThis.gc?.()
          const before = process.memoryUsage().rss
          let peak = before
          const sampler = setInterval(() => {
            peak = Math.max(peak, process.memoryUsage().rss)
          }, 20)
          const start = performance.now()
          const reply = await fetch(`${server.url}/v1/query`, {
            method: "POST",
            headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
            body: JSON.stringify({
              sql: `SELECT number, toString(number) AS s, number % 7 AS k FROM numbers(${BIG_ROWS})`,
              format: "JSONEachRow"
            })
          })
          let bytes = 0
          let lines = 0
          for await (const chunk of reply.body!) {
            bytes += chunk.length
            for (const b of chunk) if (b === 10) lines++
          }
          clearInterval(sampler)
          const seconds = (performance.now() - start) / 1000
          console.log(
            `${lines.toLocaleString("en")} rows JSONEachRow over HTTP: ${mb(bytes)} in ${seconds.toFixed(1)} s`
          )
          console.log(
            `RSS before ${mb(before)}, peak ${mb(peak)}, growth ${mb(peak - before)} (target < 200 MB)`
          )
        })

        yield* Effect.promise(async () => {
          const chdb = createChdbConnection({ path: freshDataDir("bench-query-chdb") })
          const inProcess: Array<number> = []
          for (let i = 0; i < 50 + RUNS; i++) {
            const took = await timed(async () => {
              await chdb.chdb.queryAsync(SMALL, { format: "JSON" })
            })
            if (i >= 50) inProcess.push(took)
          }
          await chdb.close()
          const p99 = (values: ReadonlyArray<number>) =>
            [...values].sort((a, b) => a - b)[Math.ceil(values.length * 0.99) - 1]!
          const [chdbMedian, chdbP99] = [median(inProcess), p99(inProcess)]
          const [httpMedian, httpP99] = [median(apartTimes), p99(apartTimes)]
          console.log(
            `chDB in this process: ${chdbMedian.toFixed(2)} ms median, p99 ${chdbP99.toFixed(2)} ms; ` +
              `sluice HTTP (minimal client in its own process): ${httpMedian.toFixed(2)} ms, p99 ${httpP99.toFixed(2)} ms`
          )
          console.log(
            `added over in-process chDB: median ${(httpMedian - chdbMedian).toFixed(2)} ms (target ≤ 1.5), ` +
              `p99 ${(httpP99 - chdbP99).toFixed(2)} ms (target ≤ 3), the worker hop included`
          )
        })
      })
    )
  )
