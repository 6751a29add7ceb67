/**
 * An `AnalyticalEngine` in another process, reached over `EngineRpcs` on a Unix socket.
 * Callers cannot tell it from an in-process engine: interrupting a query's stream or an
 * insert interrupts the RPC, which interrupts the work in the worker.
 */
import { RpcClient, RpcSerialization } from "@effect/rpc"
import { RpcClientError } from "@effect/rpc/RpcClientError"
import { NodeSocket } from "@effect/platform-node"
import { Effect, Exit, Layer, Stream } from "effect"
import type { Scope } from "effect"
import { EngineUnavailable } from "../../domain/Engine.js"
import type { AnalyticalEngine } from "../../domain/Engine.js"
import { EngineRpcs } from "./EngineRpcs.js"
import type { WorkerSample } from "./EngineRpcs.js"

/** Inserts travel in pieces of about this size: fewer round trips than the body's own chunks. */
const INSERT_PIECE_BYTES = 1024 * 1024

export interface RemoteEngine {
  readonly engine: AnalyticalEngine
  readonly sample: Effect.Effect<WorkerSample>
}

// The worker went away mid-call: nothing the caller's input did, so a defect (500).
const lost = <A, E, R>(
  effect: Effect.Effect<A, E, R>
): Effect.Effect<A, Exclude<E, RpcClientError>, R> =>
  Effect.catchAll(effect, (error) =>
    // TypeScript cannot narrow a generic union by `instanceof`; the branch above proves it.
    error instanceof RpcClientError
      ? Effect.die(error)
      : Effect.fail(error as Exclude<E, RpcClientError>)
  )

/** Concatenates small chunks into pieces of at least `size` bytes (the last may be smaller). */
const pieces =
  (size: number) =>
  <E>(body: Stream.Stream<Uint8Array, E>) =>
    Stream.suspend(() => {
      let held: Array<Uint8Array> = []
      let heldBytes = 0
      const flush = () => {
        const piece = Buffer.concat(held, heldBytes)
        held = []
        heldBytes = 0
        return piece
      }
      return body.pipe(
        Stream.mapConcat((chunk) => {
          held.push(chunk)
          heldBytes += chunk.byteLength
          return heldBytes >= size ? [flush()] : []
        }),
        Stream.concat(Stream.suspend(() => (heldBytes > 0 ? Stream.make(flush()) : Stream.empty)))
      )
    })

export const connect = (
  socketPath: string
): Effect.Effect<RemoteEngine, EngineUnavailable, Scope.Scope> =>
  Effect.gen(function* () {
    const protocol = RpcClient.layerProtocolSocket().pipe(
      Layer.provide(NodeSocket.layerNet({ path: socketPath })),
      Layer.provide(RpcSerialization.layerMsgPack)
    )
    const context = yield* Layer.build(protocol).pipe(
      Effect.mapError(
        () => new EngineUnavailable({ message: "The cluster's engine process cannot be reached." })
      )
    )
    const client = yield* Effect.provide(RpcClient.make(EngineRpcs), context)

    const engine: AnalyticalEngine = {
      // The worker's engine belongs to this cluster alone.
      databasePrefix: "",
      query: (request) =>
        client
          .Query(request)
          .pipe(
            Stream.catchAll((error) =>
              error instanceof RpcClientError ? Stream.die(error) : Stream.fail(error)
            )
          ),
      insert: (request, body) =>
        Effect.gen(function* () {
          const insertId = crypto.randomUUID()
          yield* lost(client.InsertOpen({ insertId, request }))
          return yield* body.pipe(
            pieces(INSERT_PIECE_BYTES),
            Stream.runForEach((bytes) => lost(client.InsertChunk({ insertId, bytes }))),
            Effect.zipRight(lost(client.InsertCommit({ insertId }))),
            Effect.onExit((exit) =>
              Exit.isSuccess(exit) ? Effect.void : Effect.ignore(client.InsertAbort({ insertId }))
            )
          )
        }),
      command: (request) => lost(client.Command(request)),
      cancel: (queryId) => lost(client.Cancel({ queryId }))
    }
    return { engine, sample: lost(client.Sample()) }
  })
