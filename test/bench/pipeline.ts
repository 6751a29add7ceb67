/**
 * Where a small request's server CPU goes, layer by layer, in one run: `GET /health` from
 * bare `node:http`, from Effect's `HttpRouter` on `@effect/platform-node`, from one
 * `HttpApiBuilder` endpoint (what sluice's API is built of; `pipelineServers.ts`), from
 * sluice as `npm start` runs it (its middlewares and request log on top), and sluice's
 * `POST /v1/query` of `SELECT 1` (authentication, the query path, the engine worker's
 * round trip). One client, one request at a time on a keep-alive connection; rounds
 * alternate between the servers; each figure is the server process's CPU (user + system,
 * from /proc) per request over the rounds, the engine worker's apart.
 */
import { Effect } from "effect"
import { spawn } from "node:child_process"
import type { ChildProcess } from "node:child_process"
import * as fs from "node:fs"
import { createRequire } from "node:module"
import { fileURLToPath, pathToFileURL } from "node:url"
import { childPids } from "../clusters/workerProcesses.js"
import { freshDataDir } from "../support/server.js"
import { cpuSecondsOf, cpuSecondsOfAll, median } from "./clients.js"
import type { MinimalResponse } from "./minimalHttp.js"
import { connectMinimal } from "./minimalHttp.js"
import { startServerProcess } from "./serverProcess.js"

const WARM_UP = 500
const ROUNDS = 5
const PER_ROUND = 1_000

const require = createRequire(import.meta.url)
const referenceServers = fileURLToPath(new URL("./pipelineServers.ts", import.meta.url))

type Client = Awaited<ReturnType<typeof connectMinimal>>

interface Side {
  readonly label: string
  readonly pid: number
  readonly url: string
  readonly send: (client: Client) => Promise<MinimalResponse>
  /** The engine worker's process, when the request reaches one. */
  readonly workers?: () => ReadonlyArray<number>
}

const REFERENCES = [
  ["node", "node:http"],
  ["router", "HttpRouter"],
  ["api", "HttpApiBuilder"]
] as const

/** A reference server of `pipelineServers.ts`, stopped with the scope. */
const reference = (kind: (typeof REFERENCES)[number][0]) =>
  Effect.acquireRelease(
    Effect.async<{ readonly url: string; readonly child: ChildProcess }, Error>((resume) => {
      const child = spawn(
        process.execPath,
        ["--import", pathToFileURL(require.resolve("tsx")).href, referenceServers, kind],
        { stdio: ["ignore", "pipe", "inherit"] }
      )
      let out = ""
      child.stdout.on("data", (chunk: Buffer) => {
        out += chunk.toString()
        const port = /listening (\d+)/.exec(out)?.[1]
        if (port !== undefined) resume(Effect.succeed({ url: `http://127.0.0.1:${port}`, child }))
      })
      child.once("exit", (code) =>
        resume(Effect.fail(new Error(`the ${kind} reference server exited (${code})`)))
      )
    }),
    ({ child }) => Effect.sync(() => child.kill())
  )

const ok = (what: string) => (response: MinimalResponse) => {
  if (response.status !== 200) throw new Error(`${what}: ${response.status} ${response.body}`)
  return response
}

const health = (client: Client) => client.get("/health").then(ok("GET /health"))

export const pipeline = () =>
  Effect.runPromise(
    Effect.scoped(
      Effect.gen(function* () {
        const dataDir = freshDataDir("bench-pipeline")
        yield* Effect.addFinalizer(() =>
          Effect.sync(() => fs.rmSync(dataDir, { recursive: true, force: true }))
        )
        const sluice = yield* startServerProcess(dataDir, {})
        const references = yield* Effect.forEach(REFERENCES, ([kind, label]) =>
          Effect.map(reference(kind), ({ url, child }): Side => ({
            label,
            pid: child.pid!,
            url,
            send: health
          }))
        )
        const query = { authorization: `Bearer ${sluice.key}`, "content-type": "application/json" }
        const sides: ReadonlyArray<Side> = [
          ...references,
          { label: "sluice /health", pid: sluice.pid, url: sluice.url, send: health },
          {
            label: "sluice /v1/query",
            pid: sluice.pid,
            url: sluice.url,
            send: (client) =>
              client
                .post("/v1/query", query, JSON.stringify({ sql: "SELECT 1" }))
                .then(ok("POST /v1/query")),
            workers: () => childPids(sluice.pid)
          }
        ]
        // A connection a run: a server closes one left idle (Node's after 5 s) while the
        // other sides run, and the first request's connect is spread over the run's.
        const run = async (side: Side, requests: number) => {
          const client = await connectMinimal(side.url)
          for (let i = 0; i < requests; i++) await side.send(client)
          client.close()
        }
        const figures = yield* Effect.promise(async () => {
          for (const side of sides) await run(side, WARM_UP)
          const per = sides.map(() => ({
            server: [] as Array<number>,
            worker: [] as Array<number>,
            wall: [] as Array<number>
          }))
          for (let round = 0; round < ROUNDS; round++) {
            // Each round starts with another side, so a slow spell of the machine falls on all.
            for (let k = 0; k < sides.length; k++) {
              const index = (round + k) % sides.length
              const side = sides[index]!
              const workers = side.workers?.() ?? []
              const server = cpuSecondsOf(side.pid)
              const worker = cpuSecondsOfAll(workers)
              const started = performance.now()
              await run(side, PER_ROUND)
              per[index]!.wall.push((performance.now() - started) / PER_ROUND)
              per[index]!.server.push(((cpuSecondsOf(side.pid) - server) * 1000) / PER_ROUND)
              per[index]!.worker.push(((cpuSecondsOfAll(workers) - worker) * 1000) / PER_ROUND)
            }
          }
          return per.map((one) => ({
            server: median(one.server),
            worker: median(one.worker),
            wall: median(one.wall)
          }))
        })
        const floor = figures[0]!.server
        console.log(
          `one client, ${ROUNDS} rounds of ${PER_ROUND.toLocaleString("en")} requests a side ` +
            `(after ${WARM_UP} each), medians of the rounds`
        )
        console.log(
          "| side | server CPU ms a request | ÷ node:http | engine worker CPU ms | wall ms |"
        )
        console.log("| --- | --- | --- | --- | --- |")
        sides.forEach((side, i) => {
          const { server, worker, wall } = figures[i]!
          console.log(
            `| ${side.label} | ${server.toFixed(3)} | ${(server / floor).toFixed(2)} | ` +
              `${side.workers === undefined ? "" : worker.toFixed(3)} | ${wall.toFixed(3)} |`
          )
        })
      })
    )
  )
