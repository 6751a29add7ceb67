/**
 * The service as `npm start` runs it (`node src/start.mjs`), in a process of its own: for
 * benchmarks whose client holds a lot (generated data, results), where in one process the
 * client's heap and event loop would be the server's too, and for the multi-node suites
 * (`test/support/nodes.ts`). Started means listening and answering `GET /health`.
 */
import { spawn } from "node:child_process"
import type { ChildProcess } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"
import { Effect } from "effect"
import type { Scope } from "effect"
import { installApp } from "../support/client.js"
import { eventually } from "../support/eventually.js"
import { hasPrometheus } from "../support/prometheus.js"
import { freshDataDir } from "../support/server.js"

export interface ServerProcess {
  readonly url: string
  /** The first start's admin API key. */
  readonly key: string
  readonly pid: number
}

/** One started process. */
export interface StartedProcess {
  readonly url: string
  /** The admin API key, when this start was the first on its control plane. */
  readonly key: string | undefined
  readonly child: ChildProcess
  /** The end of what it printed (both streams), for a failing test's message. */
  readonly output: () => string
}

const ROOT = path.join(import.meta.dirname, "../..")
const KEPT_OUTPUT = 256 * 1024

const exited = (child: ChildProcess) => child.exitCode !== null || child.signalCode !== null

const answersHealth = (url: string) =>
  Effect.promise(() =>
    fetch(`${url}/health`).then(
      (r) => (r.ok ? true : undefined),
      () => undefined
    )
  )

/**
 * Starts the service on `dataDir` with `env` over the `SLUICE_*` defaults (any free port);
 * `errors: "inherit"` shows its standard error in the caller's, else both streams are kept.
 */
export const launchServerProcess = (
  dataDir: string,
  env: Readonly<Record<string, string>>,
  options: { readonly errors?: "inherit" | "keep" } = {}
): Effect.Effect<StartedProcess, Error> =>
  Effect.gen(function* () {
    const child = spawn(process.execPath, ["src/start.mjs"], {
      cwd: ROOT,
      env: {
        ...process.env,
        SLUICE_DATA_DIR: dataDir,
        SLUICE_PORT: "0",
        SLUICE_GRPC_PORT: "0",
        ...env
      },
      stdio: ["ignore", "pipe", options.errors === "inherit" ? "inherit" : "pipe"]
    })
    let kept = ""
    const keep = (chunk: Buffer) => {
      kept += chunk.toString()
      if (kept.length > KEPT_OUTPUT) kept = kept.slice(-KEPT_OUTPUT / 2)
    }
    child.stdout?.on("data", keep)
    child.stderr?.on("data", keep)
    // The secrets are printed before the listening line (src/http/Announce.ts).
    const listening = yield* Effect.async<{ url: string; key: string | undefined }, Error>(
      (resume) => {
        let head = ""
        const onData = (chunk: Buffer) => {
          head += chunk.toString()
          const url = /sluice listening on (http:\/\/\S+)/.exec(head)?.[1]
          if (url === undefined) return
          child.stdout?.off("data", onData)
          child.off("close", onExit)
          resume(Effect.succeed({ url, key: /admin API key:\s+(\S+)/.exec(head)?.[1] }))
        }
        const onExit = (code: number | null, signal: string | null) =>
          resume(
            Effect.fail(
              new Error(`the server exited (${code ?? signal}) before it listened:\n${kept}`)
            )
          )
        child.stdout?.on("data", onData)
        // "close", not "exit": by then everything it printed has been read.
        child.once("close", onExit)
      }
    )
    yield* eventually(
      `GET /health at ${listening.url}`,
      Effect.flatMap(answersHealth(listening.url), (up) =>
        up === true
          ? Effect.succeed(true)
          : exited(child)
            ? Effect.fail(new Error(`the server exited after it listened:\n${kept}`))
            : Effect.succeed(undefined)
      )
    )
    return { ...listening, child, output: () => kept }
  })

/** Sends `signal` and waits for the process to be gone. */
export const stopServerProcess = (child: ChildProcess, signal: NodeJS.Signals = "SIGTERM") =>
  Effect.async<void>((resume) => {
    if (exited(child)) return resume(Effect.void)
    child.once("exit", () => resume(Effect.void))
    child.kill(signal)
  })

/** A first start on `dataDir`, stopped with SIGTERM when the scope closes. */
export const startServerProcess = (dataDir: string, env: Readonly<Record<string, string>>) =>
  Effect.acquireRelease(
    Effect.flatMap(launchServerProcess(dataDir, env, { errors: "inherit" }), (started) =>
      started.key === undefined
        ? Effect.zipRight(
            stopServerProcess(started.child),
            Effect.fail(new Error(`not a first start on ${dataDir}`))
          )
        : Effect.succeed<ServerProcess & { readonly child: ChildProcess }>({
            url: started.url,
            key: started.key,
            pid: started.child.pid!,
            child: started.child
          })
    ),
    (server) => stopServerProcess(server.child)
  )

const METRICS_ADMIN = { email: "bench@example.com", password: "bench admin password" }

/**
 * A sluice of its own for the metrics comparisons: a first start on a fresh data
 * directory (removed with the scope) with the metrics-app installed. `metricsUrl` is its
 * Prometheus-compatible base; `env` adds settings.
 */
export const startMetricsServer = (label: string, env: Readonly<Record<string, string>> = {}) =>
  Effect.gen(function* () {
    const dataDir = freshDataDir(label)
    yield* Effect.addFinalizer(() =>
      Effect.sync(() => fs.rmSync(dataDir, { recursive: true, force: true }))
    )
    const server = yield* startServerProcess(dataDir, {
      SLUICE_ADMIN_EMAIL: METRICS_ADMIN.email,
      SLUICE_ADMIN_PASSWORD: METRICS_ADMIN.password,
      ...env
    })
    yield* installApp(server, "metrics-app", METRICS_ADMIN.email, METRICS_ADMIN.password)
    return { ...server, metricsUrl: `${server.url}/metrics-compat` }
  })

/** A comparison with Prometheus as a bench entry: skipped with a note where it is not installed. */
export const besidePrometheus =
  <E>(comparison: Effect.Effect<void, E, Scope.Scope>) =>
  (): Promise<void> =>
    hasPrometheus
      ? Effect.runPromise(Effect.scoped(comparison))
      : Promise.resolve(
          console.log("no `prometheus` on PATH (apt-get install prometheus); skipped")
        )
