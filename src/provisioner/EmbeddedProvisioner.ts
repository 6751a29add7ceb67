/**
 * The embedded provisioner: each cluster's engine is chDB in its own worker process
 * (chDB binds one data directory per process), under `<dataDir>/clusters/<id>`, served
 * on `<dataDir>/run/engine-<id>.sock` (in a private temp directory instead when that
 * path is too long for a socket: `SocketDirectory`). A supervisor fiber per cluster
 * restarts a worker that dies unexpectedly and keeps a message saying so for
 * `status.message`.
 *
 * No worker is spawned ahead: a warm spare (chDB's library loaded, no engine) saved a
 * start or resume the library's loading but held a worker's memory (most of it chDB's
 * library) for as long as the service ran, paused clusters or none.
 *
 * Workers are infrastructure on real time: the provisioner runs on the live clock even
 * where a test drives the rest of the service with `TestClock`.
 */
import { Clock, Deferred, Effect, Exit, Fiber, Layer, Option, Scope } from "effect"
import * as fs from "node:fs"
import * as path from "node:path"
import { EngineUnavailable } from "../../domain/Engine.js"
import type { ClusterId } from "../../domain/Ids.js"
import { EngineSample, EngineStatus, Provisioner } from "../../domain/Provisioner.js"
import type { EngineSpec } from "../../domain/Provisioner.js"
import * as SocketDirectory from "../sockets/SocketDirectory.js"
import * as EngineRpcClient from "./EngineRpcClient.js"
import type { RemoteEngine } from "./EngineRpcClient.js"
import * as WorkerProcess from "./WorkerProcess.js"

const socketName = (cluster: string) => `engine-${cluster}.sock`
/** Every engine socket's name is this long: a cluster id is a UUID. */
const LONGEST_SOCKET_NAME = socketName("00000000-0000-0000-0000-000000000000")

interface Slot {
  /** The engine of the worker now running, or of the next one being started. */
  current: Deferred.Deferred<RemoteEngine, EngineUnavailable>
  message: string | null
  stopping: boolean
  supervisor: Fiber.RuntimeFiber<void> | undefined
}

const WAIT_FOR_ENGINE = "30 seconds"
const RESTART_DELAY = "1 second"

export const layer = (options: { readonly dataDir: string }) =>
  Layer.scoped(
    Provisioner,
    Effect.gen(function* () {
      const layerScope = yield* Effect.scope
      const slots = new Map<ClusterId, Slot>()
      const clusterDir = (cluster: ClusterId) => path.join(options.dataDir, "clusters", cluster)
      const sockets = yield* SocketDirectory.prepare(options.dataDir, LONGEST_SOCKET_NAME)

      /** One worker's life: started, connected, announced, until it exits. */
      const runWorker = (spec: EngineSpec, slot: Slot) =>
        Effect.scoped(
          Effect.gen(function* () {
            const socketPath = sockets.socketPath(socketName(spec.clusterId))
            // Uninterruptible while loading (about a second): a stop then waits, not leaks it.
            const worker = yield* Effect.acquireRelease(WorkerProcess.spawnIdle, (worker) =>
              Scope.close(worker.scope, Exit.void)
            )
            yield* WorkerProcess.activate(worker, {
              dataDir: clusterDir(spec.clusterId),
              socketPath,
              cpuCores: spec.cpuCores,
              memoryBytes: spec.memoryBytes
            })
            const remote = yield* EngineRpcClient.connect(socketPath, clusterDir(spec.clusterId))
            yield* Deferred.succeed(slot.current, remote)
            return yield* Deferred.await(worker.exited)
          })
        )

      const supervise = (spec: EngineSpec, slot: Slot): Effect.Effect<void> =>
        Effect.gen(function* () {
          let started = false
          while (!slot.stopping) {
            const outcome = yield* Effect.either(runWorker(spec, slot))
            if (slot.stopping) return
            const at = new Date().toISOString()
            if (outcome._tag === "Left") {
              yield* Deferred.fail(slot.current, outcome.left)
              if (!started) return
              slot.message = `The engine could not restart (${outcome.left.message}); retrying. Last attempt ${at}.`
            } else {
              started = true
              slot.message = `The engine process ${WorkerProcess.describeExit(outcome.right)} at ${at} and was restarted.`
            }
            slot.current = yield* Deferred.make<RemoteEngine, EngineUnavailable>()
            yield* Effect.sleep(RESTART_DELAY)
          }
        })

      const start = Effect.fn("Provisioner.start")(function* (spec: EngineSpec) {
        let slot = slots.get(spec.clusterId)
        if (slot === undefined) {
          const created: Slot = {
            current: yield* Deferred.make<RemoteEngine, EngineUnavailable>(),
            message: null,
            stopping: false,
            supervisor: undefined
          }
          slots.set(spec.clusterId, created)
          created.supervisor = yield* Effect.forkIn(supervise(spec, created), layerScope)
          slot = created
        }
        const first = slot
        yield* Deferred.await(first.current).pipe(
          Effect.tapError(() =>
            Effect.sync(() => {
              if (slots.get(spec.clusterId) === first) slots.delete(spec.clusterId)
            })
          )
        )
      })

      const stop = Effect.fn("Provisioner.stop")(function* (cluster: ClusterId) {
        const slot = slots.get(cluster)
        if (slot === undefined) return
        slot.stopping = true
        slots.delete(cluster)
        if (slot.supervisor !== undefined) yield* Fiber.interrupt(slot.supervisor)
      })

      const destroy = Effect.fn("Provisioner.destroy")(function* (cluster: ClusterId) {
        yield* stop(cluster)
        yield* Effect.sync(() => fs.rmSync(clusterDir(cluster), { recursive: true, force: true }))
      })

      const running = (cluster: ClusterId) => Option.fromNullable(slots.get(cluster))

      // Worker timeouts are real time even under a test's `TestClock`.
      const liveClock = Clock.make()
      const notRunning = new EngineUnavailable({ message: "The cluster's engine is not running." })
      const awaitEngine = Effect.fn("Provisioner.awaitEngine")(function* (slot: Slot) {
        const remote = yield* Deferred.await(slot.current).pipe(
          Effect.timeoutFail({
            duration: WAIT_FOR_ENGINE,
            onTimeout: () =>
              new EngineUnavailable({ message: "The cluster's engine did not come back in time." })
          })
        )
        return remote.engine
      }, Effect.withClock(liveClock))

      // Every data request asks: the common case (the engine is up) is a lookup, with no
      // span and no timer.
      const engine = (cluster: ClusterId) =>
        Effect.suspend(() => {
          const slot = slots.get(cluster)
          if (slot === undefined) return Effect.fail(notRunning)
          return Effect.flatMap(Deferred.poll(slot.current), (ready) =>
            Option.isSome(ready)
              ? Effect.map(ready.value, (remote) => remote.engine)
              : awaitEngine(slot)
          )
        })

      const status = Effect.fn("Provisioner.status")(function* (cluster: ClusterId) {
        return Option.match(running(cluster), {
          onNone: () => new EngineStatus({ running: false, message: null }),
          onSome: (slot) => new EngineStatus({ running: true, message: slot.message })
        })
      })

      const sample = Effect.fn("Provisioner.sample")(function* (cluster: ClusterId) {
        const slot = running(cluster)
        if (Option.isNone(slot)) return []
        const remote = yield* Deferred.poll(slot.value.current)
        if (Option.isNone(remote)) return []
        const reading = yield* Effect.either(remote.value)
        if (reading._tag === "Left") return []
        return yield* reading.right.sample.pipe(
          Effect.map((s) => [new EngineSample({ ...s, replica: "replica-1" })]),
          Effect.catchAllDefect((defect) =>
            Effect.as(
              Effect.logWarning("The engine did not answer a sample", defect).pipe(
                Effect.annotateLogs("cluster", cluster)
              ),
              []
            )
          )
        )
      })

      const onLiveClock = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
        Effect.withClock(effect, liveClock)
      return Provisioner.of({
        start: (spec) => onLiveClock(start(spec)),
        stop: (cluster) => onLiveClock(stop(cluster)),
        destroy: (cluster) => onLiveClock(destroy(cluster)),
        engine,
        status,
        sample: (cluster) => onLiveClock(sample(cluster))
      })
    })
  )
