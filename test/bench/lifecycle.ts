/**
 * Cluster lifecycle on the embedded provisioner, against one in-process server (the
 * benchmark process is the server process): over `BENCH_LIFECYCLE_ROUNDS` rounds
 * (default 5) a fresh cluster is created, paused and resumed over HTTP, each step timed
 * from the request until GET shows the target phase (polled every 20 ms), and the RSS
 * of its worker process once resumed and idle. Clusters stay running until the end.
 * A resume is timed twice: right after the pause (the previous start took the warm
 * spare worker, whose successor may still be loading) and after the cluster stayed
 * paused `BENCH_LIFECYCLE_SETTLE_MS` (default 10 s; the spare is warm by then).
 * Also: the other worker processes (the default cluster's, the warm spare) and the
 * server process.
 */
import { Effect, Schema } from "effect"
import * as os from "node:os"
import { LoginResponse } from "../../domain/api/AuthApi.js"
import { bodyOf, call, freshDataDir, startServer } from "../support/server.js"
import type { RunningServer } from "../support/server.js"
import { childPids, rssOf, workerPids } from "../clusters/workerProcesses.js"

const ROUNDS = Number(process.env.BENCH_LIFECYCLE_ROUNDS ?? "5")
const POLL_MS = 20
const IDLE_MS = 2_000
const SETTLE_MS = Number(process.env.BENCH_LIFECYCLE_SETTLE_MS ?? "10000")
const TARGET_RESUME_MS = 2_000
const EMAIL = "bench-admin@example.com"
const PASSWORD = "bench admin password"
const q = "?organization=default"

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
const run = <A>(effect: Effect.Effect<A>) => Effect.runPromise(effect)

const median = (values: ReadonlyArray<number>) => {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2
}
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`
const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`

const Phased = Schema.Struct({
  id: Schema.String,
  status: Schema.Struct({ phase: Schema.String, message: Schema.NullOr(Schema.String) })
})

const client = (server: RunningServer, token: string) => {
  const send = async (method: string, path: string, body?: unknown) => {
    const reply = await run(
      call(server, method, path, body === undefined ? { token } : { token, body })
    )
    if (reply.status >= 300) throw new Error(`${method} ${path}: ${reply.status} ${reply.text}`)
    return bodyOf(Phased, reply)
  }
  /** Milliseconds from `start` until the cluster shows `phase`. */
  const until = async (id: string, phase: string, start: number) => {
    while (true) {
      const c = await send("GET", `/v1/clusters/${id}${q}`)
      if (c.status.phase === phase) return performance.now() - start
      // A failed start leaves the phase and says why: no point waiting on.
      if (c.status.message !== null) throw new Error(`cluster ${id}: ${JSON.stringify(c.status)}`)
      if (performance.now() - start > 120_000) {
        throw new Error(`cluster ${id} stuck: ${JSON.stringify(c.status)}`)
      }
      await sleep(POLL_MS)
    }
  }
  return { send, until }
}

export const lifecycle = () =>
  Effect.runPromise(
    Effect.scoped(
      Effect.gen(function* () {
        const server = yield* startServer(freshDataDir("bench-lifecycle"), {
          SLUICE_ADMIN_EMAIL: EMAIL,
          SLUICE_ADMIN_PASSWORD: PASSWORD
        })
        const login = yield* call(server, "POST", "/v1/auth/login", {
          body: { email: EMAIL, password: PASSWORD }
        })
        const token = bodyOf(LoginResponse, login).token
        const { send, until } = client(server, token)

        yield* Effect.promise(async () => {
          const load = () => os.loadavg()[0]!.toFixed(1)
          const loadBefore = load()
          const create: Array<number> = []
          const pause: Array<number> = []
          const resume: Array<number> = []
          const settledResume: Array<number> = []
          const workerRss: Array<number> = []
          const ids: Array<string> = []
          try {
            for (let round = 0; round < ROUNDS; round++) {
              let start = performance.now()
              const { id } = await send("POST", `/v1/clusters${q}`, {
                name: `bench-${round}`,
                replicas: 1,
                size: { cpu_cores: 1, memory_gib: 4 }
              })
              ids.push(id)
              create.push(await until(id, "ready", start))
              start = performance.now()
              await send("POST", `/v1/clusters/${id}/stop${q}`)
              pause.push(await until(id, "paused", start))
              start = performance.now()
              await send("POST", `/v1/clusters/${id}/resume${q}`)
              resume.push(await until(id, "ready", start))
              await send("POST", `/v1/clusters/${id}/stop${q}`)
              await until(id, "paused", performance.now())
              await sleep(SETTLE_MS)
              start = performance.now()
              await send("POST", `/v1/clusters/${id}/resume${q}`)
              settledResume.push(await until(id, "ready", start))
              // Idle memory of a resumed engine; every cluster stays running, as users' would.
              await sleep(IDLE_MS)
              const [pid, ...more] = workerPids(id)
              if (pid === undefined || more.length > 0) throw new Error(`workers of ${id}: ${pid}`)
              workerRss.push(rssOf(pid))
              console.log(
                `round ${round + 1}: create ${seconds(create[round]!)}, pause ${seconds(pause[round]!)}, resume ${seconds(resume[round]!)}, resume after ${seconds(SETTLE_MS)} paused ${seconds(settledResume[round]!)}, worker RSS ${mb(workerRss[round]!)}`
              )
            }
            const clusterWorkers = new Set(ids.flatMap(workerPids))
            const others = childPids(process.pid).filter((pid) => !clusterWorkers.has(pid))
            const row = (label: string, values: ReadonlyArray<number>) =>
              console.log(
                `${label.padEnd(24)}${seconds(median(values)).padStart(9)}${seconds(Math.max(...values)).padStart(9)}`
              )
            console.log(
              `\n${ROUNDS} rounds, 1 CPU / 4 GiB clusters, phases polled every ${POLL_MS} ms, load average ${loadBefore} → ${load()} (2 cores)`
            )
            console.log(`${"step".padEnd(24)}${"median".padStart(9)}${"max".padStart(9)}`)
            row("create → ready", create)
            row("pause → paused", pause)
            row("resume → ready", resume)
            row(`  after ${seconds(SETTLE_MS)} paused`, settledResume)
            console.log(
              `idle worker RSS per running cluster: median ${mb(median(workerRss))}, max ${mb(Math.max(...workerRss))}`
            )
            console.log(
              `other worker processes (default cluster, warm spare): ${others.map((pid) => mb(rssOf(pid))).join(", ")}`
            )
            console.log(
              `server process RSS: ${mb(rssOf(process.pid))} (in-process server, benchmark client included)`
            )
            for (const [label, values] of [
              ["right after the pause", resume],
              [`after ${seconds(SETTLE_MS)} paused`, settledResume]
            ] as const) {
              const worst = Math.max(...values)
              console.log(
                `target resume → ready < ${seconds(TARGET_RESUME_MS)}, ${label}: ${worst < TARGET_RESUME_MS ? "met" : "NOT met"} (median ${seconds(median(values))}, max ${seconds(worst)})`
              )
            }
          } finally {
            for (const id of ids) await send("DELETE", `/v1/clusters/${id}${q}`).catch(() => null)
          }
        })
      })
    )
  )
