/**
 * Engine worker processes. A worker is spawned idle (its modules loaded, chDB's library
 * above all), then activated for one cluster: it opens that cluster's engine and says
 * "ready" (`WorkerCommand` says what runs). Workers talk to us over their socket and use
 * the IPC channel only for these messages and to notice we went away.
 */
import { Deferred, Effect, Exit, Scope } from "effect"
import type { ChildProcess } from "node:child_process"
import { spawn } from "node:child_process"
import { EngineUnavailable } from "../../domain/Engine.js"
import type { WorkerArgs } from "./EngineWorker.js"
import { workerCommand } from "./WorkerCommand.js"
import { workerEnvironment } from "./WorkerEnvironment.js"

/** How a worker process ended. */
export interface WorkerExit {
  readonly code: number | null
  readonly signal: NodeJS.Signals | null
}

/** A spawned worker; closing `scope` stops it. */
export interface IdleWorker {
  readonly child: ChildProcess
  readonly scope: Scope.CloseableScope
  /** Completes when the process has exited, for whatever reason. */
  readonly exited: Deferred.Deferred<WorkerExit>
}

const STOP_GRACE = "30 seconds"
const START_TIMEOUT = "60 seconds"

export const describeExit = (exit: WorkerExit) =>
  exit.signal !== null ? `was killed by ${exit.signal}` : `exited with code ${exit.code}`

/** Resolves on `message` from the worker, fails if it exits first or takes too long. */
const awaitMessage = (worker: IdleWorker, message: string, stage: string) =>
  Effect.async<void, EngineUnavailable>((resume) => {
    const onMessage = (received: unknown) => {
      if (received === message) resume(Effect.void)
    }
    worker.child.on("message", onMessage)
    const onExit = (code: number | null, signal: NodeJS.Signals | null) =>
      resume(
        Effect.fail(
          new EngineUnavailable({
            message: `The engine process ${describeExit({ code, signal })} while ${stage}.`
          })
        )
      )
    worker.child.once("exit", onExit)
    return Effect.sync(() => {
      worker.child.off("message", onMessage)
      worker.child.off("exit", onExit)
    })
  }).pipe(
    Effect.timeoutFail({
      duration: START_TIMEOUT,
      onTimeout: () =>
        new EngineUnavailable({ message: `The engine process took too long ${stage}.` })
    })
  )

/**
 * Each chDB call waits in one of libuv's threads, 4 by default: 16 concurrent inserts then
 * queued a small statement (a staging table's paths, the attach) behind the big ones.
 * With 16, the staged insert of 16 clients ran many more inserts a second.
 */
const threadPoolSize = process.env.UV_THREADPOOL_SIZE ?? "16"

/**
 * Spawns a worker and waits until it is idle. Its scope stops it: SIGTERM (the worker
 * drains its engine), then SIGKILL if it takes longer than the grace time.
 */
export const spawnIdle: Effect.Effect<IdleWorker, EngineUnavailable> = Effect.gen(function* () {
  const scope = yield* Scope.make()
  const exited = yield* Deferred.make<WorkerExit>()
  const command = yield* workerCommand
  const child = yield* Scope.extend(
    Effect.acquireRelease(
      Effect.sync(() =>
        spawn(process.execPath, [...command], {
          stdio: ["ignore", "inherit", "inherit", "ipc"],
          env: workerEnvironment(process.env, threadPoolSize)
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
    ),
    scope
  )
  child.once("exit", (code, signal) =>
    Deferred.unsafeDone(exited, Effect.succeed({ code, signal }))
  )
  child.once("error", () => child.kill("SIGKILL"))
  const worker = { child, scope, exited }
  yield* awaitMessage(worker, "idle", "loading").pipe(
    Effect.tapError(() => Scope.close(scope, Exit.void))
  )
  return worker
})

/** Points an idle worker at a cluster and waits until its engine answers. */
export const activate = (worker: IdleWorker, args: WorkerArgs) =>
  Effect.zipRight(
    Effect.sync(() => worker.child.send({ open: args })),
    awaitMessage(worker, "ready", "opening the engine")
  )
