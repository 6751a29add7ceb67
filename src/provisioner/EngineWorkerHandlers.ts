/**
 * The worker's side of `EngineRpcs`: each RPC forwards to the engine hosted in this
 * process. An open insert is a fiber consuming a small queue; a chunk is acknowledged
 * once the queue took it, so the sender can never run ahead of the engine.
 */
import { Effect, Fiber, FiberMap, Option, Queue, Stream } from "effect"
import * as fsp from "node:fs/promises"
import * as path from "node:path"
import type { AnalyticalEngine, InsertSummary } from "../../domain/Engine.js"
import type { LocalEngine } from "../engine/ClickHouseEngine.js"
import { EngineError, EngineQuery } from "../../domain/Engine.js"
import { resultTooLarge } from "../engine/EngineMessage.js"
import * as Sql from "../engine/Sql.js"
import { EngineRpcs, WorkerSample } from "./EngineRpcs.js"
import * as ProcessReadings from "./ProcessReadings.js"

interface OpenInsert {
  readonly queue: Queue.Queue<Option.Option<Uint8Array>>
  readonly done: Effect.Effect<InsertSummary, EngineError>
}

const unknownInsert = new EngineError({ message: "The insert is not open in the engine." })

/**
 * `request`'s result written by the engine into a new file of `directory`, and its size.
 * The request's own `max_result_bytes` stops a runaway result in the engine; the file's
 * size is then held to `maxBytes` as the socket's way holds the bytes it reads. A failed
 * or stopped query leaves no file behind.
 */
const resultToFile = (
  engine: AnalyticalEngine,
  directory: string,
  request: EngineQuery,
  maxBytes: number
) =>
  Effect.gen(function* () {
    const format = yield* Sql.formatName(request.format)
    const file = `${crypto.randomUUID()}.bin`
    const where = path.join(directory, file)
    const sql = Sql.intoFile(request.sql, where, format)
    return yield* engine.queryWhole(new EngineQuery({ ...request, sql }, true), maxBytes).pipe(
      Effect.zipRight(
        Effect.tryPromise({
          try: () => fsp.stat(where),
          catch: () => new EngineError({ message: "The engine wrote no result file." })
        })
      ),
      Effect.flatMap(({ size }) =>
        size > maxBytes
          ? Effect.fail(resultTooLarge(maxBytes))
          : Effect.succeed({ file, bytes: size })
      ),
      Effect.onExit((exit) =>
        exit._tag === "Success" ? Effect.void : Effect.promise(() => fsp.rm(where, { force: true }))
      )
    )
  })

/** `stream`'s pieces, each marked whether it is the last (one piece of look-ahead). */
const marked = <E>(stream: Stream.Stream<Uint8Array, E>) =>
  Stream.map(
    // One piece a message: the channel sends a stream's chunk as one message.
    Stream.zipWithNext(Stream.rechunk(stream, 1)),
    ([bytes, next]) => ({ bytes, last: Option.isNone(next) })
  )

/** An engine without `queryOpen`: its whole stream as the rest. */
const opened = <E>(stream: Stream.Stream<Uint8Array, E>) =>
  Effect.succeed({ head: [] as ReadonlyArray<Uint8Array>, rest: stream })

/** `exchange`: the directory of files between the service and this worker (`exchangeDirectory`). */
export const handlers = (engine: LocalEngine, exchange: string) =>
  EngineRpcs.toLayer(
    Effect.gen(function* () {
      const running = yield* FiberMap.make<string, InsertSummary, EngineError>()
      const inserts = new Map<string, OpenInsert>()
      const readings = yield* ProcessReadings.make(engine)

      const insertOf = (insertId: string) =>
        Option.match(Option.fromNullable(inserts.get(insertId)), {
          onNone: () => Effect.fail(unknownInsert),
          onSome: Effect.succeed
        })

      return EngineRpcs.of({
        // The first pieces are read in one call (`queryOpen`): a result that ends within
        // them (most small ones) goes out marked last with no stream stage per piece. A
        // longer one streams on, one piece of look-ahead marking its last.
        Query: (request) =>
          Stream.unwrapScoped(
            Effect.map(
              engine.queryOpen?.(request, 2) ?? opened(engine.query(request)),
              ({ head, rest }) =>
                rest === undefined
                  ? Stream.fromIterable(
                      head.map((bytes, i) => ({ bytes, last: i === head.length - 1 }))
                    )
                  : Stream.concat(
                      Stream.fromIterable(head.map((bytes) => ({ bytes, last: false }))),
                      marked(rest)
                    )
            )
          ),
        QueryWhole: ({ maxBytes, request }) => engine.queryWhole(request, maxBytes),
        QueryToFile: ({ maxBytes, request }) => resultToFile(engine, exchange, request, maxBytes),
        Insert: ({ pieces, request }) =>
          engine.insertWhole(request, pieces.length === 1 ? pieces[0]! : Buffer.concat(pieces)),
        InsertFile: ({ file, request }) => engine.insertFile(request, path.join(exchange, file)),
        InsertOpen: ({ insertId, request }) =>
          Effect.gen(function* () {
            const queue = yield* Queue.bounded<Option.Option<Uint8Array>>(2)
            const body = Stream.fromQueue(queue).pipe(
              Stream.takeWhile(Option.isSome),
              Stream.map((chunk) => chunk.value)
            )
            const fiber = yield* FiberMap.run(running, insertId, engine.insert(request, body))
            // A failed insert stops taking chunks: release a sender blocked on the queue.
            yield* Effect.forkDaemon(Effect.zipRight(fiber.await, Queue.shutdown(queue)))
            inserts.set(insertId, {
              queue,
              done: Effect.ensuring(
                Fiber.join(fiber),
                Effect.sync(() => inserts.delete(insertId))
              )
            })
          }),
        InsertChunk: ({ insertId, bytes }) =>
          Effect.flatMap(insertOf(insertId), (open) =>
            Queue.offer(open.queue, Option.some(bytes)).pipe(
              Effect.catchAllCause(() => open.done),
              Effect.asVoid
            )
          ),
        InsertCommit: ({ insertId }) =>
          Effect.flatMap(insertOf(insertId), (open) =>
            Queue.offer(open.queue, Option.none()).pipe(
              Effect.catchAllCause(() => Effect.void),
              Effect.zipRight(open.done)
            )
          ),
        InsertAbort: ({ insertId }) =>
          Effect.zipRight(
            FiberMap.remove(running, insertId),
            Effect.sync(() => inserts.delete(insertId))
          ),
        Command: (request) => engine.command(request),
        Cancel: ({ queryId }) => engine.cancel(queryId),
        Sample: () => Effect.map(readings, (reading) => new WorkerSample(reading))
      })
    })
  )
