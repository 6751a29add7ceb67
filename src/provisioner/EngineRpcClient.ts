/**
 * An `AnalyticalEngine` in another process, reached over `EngineRpcs` on a Unix socket.
 * Callers cannot tell it from an in-process engine: interrupting a query's stream or an
 * insert interrupts the RPC, which interrupts the work in the worker.
 */
import { RpcClient } from "@effect/rpc"
import { RpcClientError } from "@effect/rpc/RpcClientError"
import { Socket } from "@effect/platform"
import { NodeSocket } from "@effect/platform-node"
import { Cause, Effect, Exit, Layer, Mailbox, Option, Stream } from "effect"
import type { Scope } from "effect"
import * as fs from "node:fs"
import * as fsp from "node:fs/promises"
import * as path from "node:path"
import { EngineUnavailable, WHOLE_INSERT_BYTES } from "../../domain/Engine.js"
import type { AnalyticalEngine, InsertRequest } from "../../domain/Engine.js"
import { isFileFormat } from "../engine/NativeSession.js"
import { EngineRpcs, exchangeDirectory } from "./EngineRpcs.js"
import { layerFramedMsgPack } from "./FramedMsgPack.js"
import type { WorkerSample } from "./EngineRpcs.js"
import { lookAhead } from "../stream/LookAhead.js"

export interface RemoteEngine {
  readonly engine: AnalyticalEngine
  readonly sample: Effect.Effect<WorkerSample>
}

// The worker went away mid-call: its client fails the call, a write to its socket dies,
// or (once closed) the client interrupts the call. Neither is the caller's doing, so both become the defect `EngineUnavailable`, which
// the HTTP edge answers as a 503. (An interruption of the caller itself never gets here.)
const engineLost = new EngineUnavailable({
  message: "The cluster's engine stopped while handling the request; it is being restarted."
})
const isLost = <E>(cause: Cause.Cause<E>) =>
  Cause.isInterruptedOnly(cause) ||
  Option.exists(Cause.failureOption(cause), (error) => error instanceof RpcClientError) ||
  // A write that races the close of the dead worker's socket dies with EPIPE.
  Option.exists(Cause.dieOption(cause), Socket.isSocketError)

const lost = <A, E, R>(
  effect: Effect.Effect<A, E, R>
): Effect.Effect<A, Exclude<E, RpcClientError>, R> =>
  Effect.catchAllCause(effect, (cause) =>
    isLost(cause)
      ? Effect.die(engineLost)
      : // TypeScript cannot narrow a generic cause; `isLost` took the client's errors out.
        Effect.failCause(cause as Cause.Cause<Exclude<E, RpcClientError>>)
  )

/** A result's pieces as bytes, up to the one marked last: the stream's own end follows a round trip later. */
const resultBytes = <E>(
  pieces: Stream.Stream<{ readonly bytes: Uint8Array; readonly last: boolean }, E>
) =>
  pieces.pipe(
    Stream.takeUntil((piece) => piece.last),
    Stream.map((piece) => piece.bytes),
    Stream.catchAllCause((cause) =>
      isLost(cause)
        ? Stream.die(engineLost)
        : // As in `lost`: the client's errors were taken out by `isLost`.
          Stream.failCause(cause as Cause.Cause<Exclude<E, RpcClientError>>)
    )
  )

/**
 * The most of a streamed body read ahead to send it as one message. Each chunk's
 * acknowledgement waits for a turn of this process's event loop, which a busy service
 * (remote writes decoding beside their own inserts) gives slowly. The worker holds an
 * insert's body whole either way: chDB takes it whole.
 */
const MESSAGE_INSERT_BYTES = 32 * 1024 * 1024

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

/**
 * The formats whose whole results come back as a file (`QueryToFile`): the binary results of
 * the metrics-app's reads, which run to megabytes (a day of samples: 14 MB). A day's reads
 * took 0.73-0.92x the time and the worker 0.7x the CPU, and the compliance round's small
 * reads did not slow down; other formats are results of people's SQL, mostly small.
 */
const FILE_RESULT_FORMATS: ReadonlySet<string> = new Set(["RowBinary", "Native"])

/** `bytes` of `file`, read whole into one buffer, and removed (whether read or not). */
const readResult = (file: string, bytes: number) =>
  Effect.tryPromise({
    try: async () => {
      const buffer = Buffer.allocUnsafe(bytes)
      const handle = await fsp.open(file, "r")
      try {
        for (let at = 0; at < bytes;) {
          const { bytesRead } = await handle.read(buffer, at, bytes - at, at)
          if (bytesRead === 0) throw new Error("a result file ended early")
          at += bytesRead
        }
      } finally {
        await handle.close()
      }
      return buffer
    },
    catch: () => engineLost
  }).pipe(Effect.orDie, Effect.ensuring(Effect.promise(() => fsp.rm(file, { force: true }))))

/**
 * Binary bodies of this size or more go to the worker as a file (`InsertFile`): the
 * engine reads them from a file anyway, and a message of a megabyte or more waits for
 * several turns of a busy service's event loop to cross the socket.
 */
const FILE_INSERT_BYTES = 1024 * 1024

/**
 * `pieces` written in order into a new file `file`; false (and no file) when the
 * directory cannot take them, so the body goes as a message instead. Written at once
 * (a few ms for the largest, 32 MiB): through the thread pool, each of the open, the
 * write and the close waited for a turn of the same busy event loop.
 */
const writeBody = (file: string, pieces: ReadonlyArray<Uint8Array>) =>
  Effect.sync(() => {
    try {
      const fd = fs.openSync(file, "wx", 0o600)
      try {
        for (const piece of pieces) {
          for (let at = 0; at < piece.byteLength;) at += fs.writeSync(fd, piece, at)
        }
      } finally {
        fs.closeSync(fd)
      }
      return true
    } catch {
      fs.rmSync(file, { force: true })
      return false
    }
  })

/** `dataDir`: the cluster's directory, which the worker serves (its exchange directory inside). */
export const connect = (
  socketPath: string,
  dataDir: string
): Effect.Effect<RemoteEngine, EngineUnavailable, Scope.Scope> =>
  Effect.gen(function* () {
    const protocol = RpcClient.layerProtocolSocket().pipe(
      Layer.provide(NodeSocket.layerNet({ path: socketPath })),
      Layer.provide(layerFramedMsgPack)
    )
    const context = yield* Layer.build(protocol).pipe(
      Effect.mapError(
        () => new EngineUnavailable({ message: "The cluster's engine process cannot be reached." })
      )
    )
    const client = yield* Effect.provide(RpcClient.make(EngineRpcs), context)
    const exchange = exchangeDirectory(dataDir)

    /**
     * A whole body in one message, or in a file when it is binary and large; the worker
     * removes the file once the engine is done with it, and so does this side when the
     * call never got there.
     */
    const insertHeld = (request: InsertRequest, pieces: ReadonlyArray<Uint8Array>) => {
      const size = pieces.reduce((total, piece) => total + piece.byteLength, 0)
      if (size < FILE_INSERT_BYTES || !isFileFormat(request.format))
        return lost(client.Insert({ request, pieces }))
      const file = `${crypto.randomUUID()}.bin`
      const where = path.join(exchange, file)
      return writeBody(where, pieces).pipe(
        Effect.flatMap((written) =>
          written
            ? lost(client.InsertFile({ request, file }))
            : lost(client.Insert({ request, pieces }))
        ),
        Effect.onExit((exit) =>
          Exit.isSuccess(exit) ? Effect.void : Effect.promise(() => fsp.rm(where, { force: true }))
        )
      )
    }

    const engine: AnalyticalEngine = {
      // The worker's engine belongs to this cluster alone.
      databasePrefix: "",
      query: (request) => resultBytes(client.Query(request)),
      // The reply's pieces taken from its mailbox as they come: a result that ends within
      // the first `pieces` (most small ones) passes through no stream stage, which cost
      // the service ~850 runtime operations a query, against ~570 for the whole query.
      queryOpen: (request, pieces) =>
        lost(
          Effect.gen(function* () {
            const mailbox = yield* client.Query(request, { asMailbox: true })
            const head: Array<Uint8Array> = []
            for (;;) {
              const [taken, done] = yield* mailbox.takeAll
              let ended = done
              for (const piece of taken) {
                head.push(piece.bytes)
                ended ||= piece.last
              }
              if (ended) return { head, rest: undefined }
              if (head.length >= pieces) {
                return { head, rest: resultBytes(Mailbox.toStream(mailbox)) }
              }
            }
          })
        ),
      queryWhole: (request, maxBytes) =>
        FILE_RESULT_FORMATS.has(request.format)
          ? // Once the file is made, nothing stops its reading and removal.
            Effect.uninterruptibleMask((restore) =>
              Effect.flatMap(restore(lost(client.QueryToFile({ request, maxBytes }))), (result) =>
                readResult(path.join(exchange, result.file), result.bytes)
              )
            )
          : lost(client.QueryWhole({ request, maxBytes })),
      insert: (request, body) =>
        Effect.scoped(
          Effect.gen(function* () {
            // A body that ends within `MESSAGE_INSERT_BYTES` goes as one message, in the
            // pieces it came in; a longer one is opened and fed in pieces of
            // `WHOLE_INSERT_BYTES`, each acknowledged before the next is sent.
            let counted = 0
            let aheadBytes = 0
            const { ahead, ended, all } = yield* lookAhead(body, (ahead) => {
              for (; counted < ahead.length; counted++) aheadBytes += ahead[counted]!.byteLength
              return aheadBytes > MESSAGE_INSERT_BYTES
            })
            if (ended) return yield* insertHeld(request, ahead)
            const insertId = crypto.randomUUID()
            yield* lost(client.InsertOpen({ insertId, request }))
            return yield* pieces(WHOLE_INSERT_BYTES)(all).pipe(
              Stream.runForEach((bytes) => lost(client.InsertChunk({ insertId, bytes }))),
              Effect.zipRight(lost(client.InsertCommit({ insertId }))),
              Effect.onExit((exit) =>
                Exit.isSuccess(exit) ? Effect.void : Effect.ignore(client.InsertAbort({ insertId }))
              )
            )
          })
        ),
      insertWhole: (request, bytes) => insertHeld(request, [bytes]),
      command: (request) => lost(client.Command(request)),
      cancel: (queryId) => lost(client.Cancel({ queryId }))
    }
    return { engine, sample: lost(client.Sample()) }
  })
