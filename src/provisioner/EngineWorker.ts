/**
 * A cluster's engine worker process: `node --import tsx EngineWorker.ts`, told which
 * cluster to serve over its IPC channel. It opens chDB over the cluster's data directory with the cluster's size as engine
 * limits, serves `EngineRpcs` on a Unix socket only the service's user can reach, and
 * tells its parent "ready" over the IPC channel. It stops (draining the engine) on
 * SIGTERM or when the parent goes away.
 */
import { RpcServer } from "@effect/rpc"
// Each module by its own path: the package's index brings every module into the bundle,
// undici among them (NodeHttpClient), source and memory a worker never uses.
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import * as NodeSocketServer from "@effect/platform-node/NodeSocketServer"
import { Effect, Layer, Schema } from "effect"
import * as fs from "node:fs"
import * as path from "node:path"
import * as ChdbEngine from "../engine/ChdbEngine.js"
import { EngineRpcs, exchangeDirectory } from "./EngineRpcs.js"
import { layerFramedMsgPack } from "./FramedMsgPack.js"
import { handlers } from "./EngineWorkerHandlers.js"
import * as FilePages from "../runtime/FilePages.js"
import * as IdleMemory from "../runtime/IdleMemory.js"
import * as ReleasePages from "../runtime/ReleasePages.js"

/** What the provisioner passes as the single argument. */
export const WorkerArgs = Schema.Struct({
  dataDir: Schema.String,
  socketPath: Schema.String,
  cpuCores: Schema.Number,
  memoryBytes: Schema.Number
})
export type WorkerArgs = typeof WorkerArgs.Type

const decodeArgs = Schema.decodeUnknownSync(WorkerArgs)

/**
 * Which cluster to serve: the first IPC message `{ open: WorkerArgs }`. A worker starts
 * with its modules (chDB's library above all) loaded and says "idle", so the provisioner
 * can keep one warm and a resume only pays for opening the engine.
 */
const assignment = Effect.async<WorkerArgs>((resume) => {
  const onMessage = (message: unknown) => {
    if (typeof message === "object" && message !== null && "open" in message) {
      process.off("message", onMessage)
      resume(Effect.sync(() => decodeArgs(message.open)))
    }
  }
  process.on("message", onMessage)
  process.send?.("idle")
})

const limitsOf = (args: WorkerArgs) => ({
  max_threads: Math.max(1, Math.floor(args.cpuCores)),
  max_insert_threads: Math.max(1, Math.floor(args.cpuCores)),
  max_memory_usage: Math.floor(args.memoryBytes)
})

/** The exchange directory, emptied: what is there was for a worker or service now gone. */
const exchangeFor = (args: WorkerArgs) => {
  const directory = exchangeDirectory(args.dataDir)
  fs.rmSync(directory, { recursive: true, force: true })
  // Its name until the service handed bodies over too: gone from older data directories.
  fs.rmSync(path.join(args.dataDir, "results"), { recursive: true, force: true })
  fs.mkdirSync(directory, { recursive: true, mode: 0o700 })
  return directory
}

const serverFor = (args: WorkerArgs) =>
  RpcServer.layer(EngineRpcs).pipe(
    Layer.provide(
      Layer.unwrapScoped(
        Effect.map(
          // The cluster's memory holds for all its statements together, not each alone.
          ChdbEngine.open(args.dataDir, limitsOf(args), { maxMemoryBytes: args.memoryBytes }),
          (engine) => handlers(engine, exchangeFor(args))
        )
      )
    ),
    Layer.provide(RpcServer.layerProtocolSocketServer),
    Layer.provide(
      Layer.suspend(() => {
        fs.rmSync(args.socketPath, { force: true })
        return NodeSocketServer.layer({ path: args.socketPath })
      })
    ),
    Layer.provide(layerFramedMsgPack)
  )

process.on("disconnect", () => process.kill(process.pid, "SIGTERM"))

/**
 * What an idle worker gives back: its young generation, and the pages of chDB's library
 * and of `node` that the engine's start touched (`FilePages.ts`), unless this machine
 * could not build the native release.
 */
const idleHoldings = Effect.match(ReleasePages.load, {
  onFailure: () => [IdleMemory.youngGeneration()],
  onSuccess: (release) => [
    IdleMemory.youngGeneration(),
    FilePages.holding(release, FilePages.engineWorkerFiles())
  ]
})

Effect.gen(function* () {
  // Forked whole: building the release, where `npm install` could not, does not hold up
  // the worker's start.
  yield* Effect.forkScoped(
    Effect.flatMap(idleHoldings, (holdings) => IdleMemory.giveBackWhenIdle({ holdings }))
  )
  const args = yield* assignment
  // `ps` shows whose engine this is (also how an operator or a test finds it).
  process.title = `sluice-engine ${path.basename(args.dataDir)}`
  yield* Layer.build(serverFor(args))
  yield* Effect.sync(() => process.send?.("ready"))
  return yield* Effect.never
}).pipe(Effect.scoped, NodeRuntime.runMain)
