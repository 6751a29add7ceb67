/**
 * Starting and stopping one engine worker process. The worker runs this repository's
 * TypeScript through tsx (as `npm start` does), talks to us over its socket, and uses
 * the IPC channel only to say "ready" and to notice that we went away.
 */
import { Deferred, Effect } from "effect"
import type { Scope } from "effect"
import { spawn } from "node:child_process"
import { createRequire } from "node:module"
import { fileURLToPath, pathToFileURL } from "node:url"
import { EngineUnavailable } from "../../domain/Engine.js"
import type { WorkerArgs } from "./EngineWorker.js"

const entry = fileURLToPath(new URL("./EngineWorker.ts", import.meta.url))
const tsxLoader = pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href

/** How a worker process ended. */
export interface WorkerExit {
  readonly code: number | null
  readonly signal: NodeJS.Signals | null
}

export interface WorkerProcess {
  readonly pid: number
  /** Completes when the process has exited, for whatever reason. */
  readonly exited: Deferred.Deferred<WorkerExit>
}

const STOP_GRACE = "30 seconds"
const START_TIMEOUT = "60 seconds"

export const describeExit = (exit: WorkerExit) =>
  exit.signal !== null ? `was killed by ${exit.signal}` : `exited with code ${exit.code}`

/**
 * Spawns a worker and waits for it to be ready. Closing the scope stops it: SIGTERM
 * (the worker drains its engine), then SIGKILL if it takes longer than the grace time.
 */
export const start = (
  args: WorkerArgs
): Effect.Effect<WorkerProcess, EngineUnavailable, Scope.Scope> =>
  Effect.gen(function* () {
    const exited = yield* Deferred.make<WorkerExit>()
    const child = yield* Effect.acquireRelease(
      Effect.sync(() =>
        spawn(process.execPath, ["--import", tsxLoader, entry, JSON.stringify(args)], {
          stdio: ["ignore", "inherit", "inherit", "ipc"],
          serialization: "json"
        })
      ),
      (child) =>
        Effect.suspend(() => {
          if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM")
          return Deferred.await(exited)
        }).pipe(
          Effect.timeoutOption(STOP_GRACE),
          Effect.flatMap((done) =>
            done._tag === "None" ? Effect.sync(() => child.kill("SIGKILL")) : Effect.void
          )
        )
    )
    child.once("exit", (code, signal) =>
      Deferred.unsafeDone(exited, Effect.succeed({ code, signal }))
    )
    const ready = Effect.async<void, EngineUnavailable>((resume) => {
      const onMessage = (message: unknown) => {
        if (message === "ready") resume(Effect.void)
      }
      child.on("message", onMessage)
      child.once("exit", (code, signal) =>
        resume(
          Effect.fail(
            new EngineUnavailable({
              message: `The engine process ${describeExit({ code, signal })} while starting.`
            })
          )
        )
      )
      child.once("error", () =>
        resume(
          Effect.fail(new EngineUnavailable({ message: "The engine process could not start." }))
        )
      )
      return Effect.sync(() => child.off("message", onMessage))
    })
    yield* ready.pipe(
      Effect.timeoutFail({
        duration: START_TIMEOUT,
        onTimeout: () =>
          new EngineUnavailable({ message: "The engine process did not become ready in time." })
      })
    )
    return { pid: child.pid ?? -1, exited }
  })
