/**
 * A cluster's engine worker process: `node --import tsx EngineWorker.ts '<json args>'`.
 * It opens chDB over the cluster's data directory with the cluster's size as engine
 * limits, serves `EngineRpcs` on a Unix socket only the service's user can reach, and
 * tells its parent "ready" over the IPC channel. It stops (draining the engine) on
 * SIGTERM or when the parent goes away.
 */
import { RpcSerialization, RpcServer } from "@effect/rpc"
import { NodeRuntime, NodeSocketServer } from "@effect/platform-node"
import { Effect, Layer, Schema } from "effect"
import * as fs from "node:fs"
import * as ChdbEngine from "../engine/ChdbEngine.js"
import { EngineRpcs } from "./EngineRpcs.js"
import { handlers } from "./EngineWorkerHandlers.js"

/** What the provisioner passes as the single argument. */
export const WorkerArgs = Schema.Struct({
  dataDir: Schema.String,
  socketPath: Schema.String,
  cpuCores: Schema.Number,
  memoryBytes: Schema.Number
})
export type WorkerArgs = typeof WorkerArgs.Type

const args = Schema.decodeUnknownSync(Schema.parseJson(WorkerArgs))(process.argv[2])

const limits = {
  max_threads: Math.max(1, Math.floor(args.cpuCores)),
  max_insert_threads: Math.max(1, Math.floor(args.cpuCores)),
  max_memory_usage: Math.floor(args.memoryBytes)
}

const HandlersLive = Layer.unwrapScoped(Effect.map(ChdbEngine.open(args.dataDir, limits), handlers))

const ServerLive = RpcServer.layer(EngineRpcs).pipe(
  Layer.provide(HandlersLive),
  Layer.provide(RpcServer.layerProtocolSocketServer),
  Layer.provide(
    Layer.suspend(() => {
      fs.rmSync(args.socketPath, { force: true })
      return NodeSocketServer.layer({ path: args.socketPath })
    })
  ),
  Layer.provide(RpcSerialization.layerMsgPack)
)

process.on("disconnect", () => process.kill(process.pid, "SIGTERM"))

Effect.gen(function* () {
  yield* Layer.build(ServerLive)
  yield* Effect.sync(() => process.send?.("ready"))
  return yield* Effect.never
}).pipe(Effect.scoped, NodeRuntime.runMain)
