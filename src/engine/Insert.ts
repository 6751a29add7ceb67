/**
 * Streams an Effect `Stream` into `INSERT … FORMAT …`. Over HTTP the body is never held
 * whole; chDB takes an insert's data only whole, so there the body is gathered and the
 * statement runs as one native call on its session: as bytes through chDB's raw insert
 * for the formats it takes, else as the end of the statement's text.
 */
import { Cause, Chunk, Effect, Exit, Option, Runtime, Stream } from "effect"
import type { Scope } from "effect"
import * as fs from "node:fs"
import { Readable } from "node:stream"
import { InsertSummary } from "../../domain/Engine.js"
import type { EngineError, InsertRequest } from "../../domain/Engine.js"
import * as Sql from "./Sql.js"
import type { BodyFile, NativeSession, Statement } from "./Statements.js"

const asBuffer = (bytes: Uint8Array) =>
  Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)

/** chDB takes an insert's data only whole (its SQL path as text, its raw insert as bytes). */
const wholeBody = <E>(body: Stream.Stream<Uint8Array, E>) =>
  Effect.map(Stream.runCollect(body), (chunks) => {
    const pieces = Chunk.toReadonlyArray(chunks)
    return pieces.length === 1 ? asBuffer(pieces[0]!) : Buffer.concat(pieces)
  })

/** The statement over HTTP with `values` as its body; the statement settles when it ends. */
const execOverHttp = (statement: Statement, request: InsertRequest, values: Readable) =>
  Effect.tryPromise({
    try: async () => {
      const result = await statement.client.exec({
        query: Sql.insertStatement(request),
        values,
        query_id: request.queryId,
        clickhouse_settings: statement.settings,
        abort_signal: statement.signal
      })
      for await (const _ of result.stream) {
        // An INSERT answers with an empty body; reading it releases the connection.
      }
      return new InsertSummary(
        {
          writtenRows: Number(result.summary?.written_rows ?? 0),
          writtenBytes: Number(result.summary?.written_bytes ?? 0)
        },
        true
      )
    },
    catch: statement.failure
  }).pipe(Effect.onExit((exit) => Effect.sync(() => statement.settle(Exit.isSuccess(exit)))))

/**
 * `body` as a Node stream for the client: each read pulls the body once and pushes every
 * piece that pull brought, so a body held in pieces (a chunk of records, as the request
 * brought it) is written without being joined, for one run of the runtime. Through
 * `Stream.toAsyncIterable` each piece took a fiber's turn of its own, which cost about as
 * much CPU as joining them.
 * `failed` hears the body's failure before the stream is destroyed with it.
 */
const pulledReadable = <E>(
  body: Stream.Stream<Uint8Array, E>,
  failed: (cause: Cause.Cause<E>) => void
): Effect.Effect<Readable, never, Scope.Scope> =>
  Effect.gen(function* () {
    const pull = yield* Stream.toPull(body)
    const run = Runtime.runCallback(yield* Effect.runtime<never>())
    let cancel: (() => void) | undefined = undefined
    const next = (): void => {
      cancel = run(pull, {
        onExit: (exit) => {
          cancel = undefined
          if (Exit.isSuccess(exit)) {
            if (Chunk.isEmpty(exit.value)) return next()
            for (const piece of exit.value) values.push(piece)
            return
          }
          const failure = Cause.flipCauseOption(exit.cause)
          if (Option.isNone(failure)) {
            values.push(null)
            return
          }
          failed(failure.value)
          values.destroy(new Error("The insert's body failed"))
        }
      })
    }
    const values = new Readable({ read: next })
    yield* Effect.addFinalizer(() =>
      Effect.sync(() => {
        values.destroy()
        cancel?.()
      })
    )
    return values
  })

const overHttp = <E>(
  statement: Statement,
  request: InsertRequest,
  body: Stream.Stream<Uint8Array, E>
): Effect.Effect<InsertSummary, EngineError | E, Scope.Scope> =>
  Effect.gen(function* () {
    // The client sees the body fail as a thrown error; keep the typed one to return.
    let bodyFailure: Option.Option<Cause.Cause<E>> = Option.none()
    const values = yield* pulledReadable(body, (cause) => {
      if (!Cause.isInterruptedOnly(cause)) bodyFailure = Option.some(cause)
    })
    return yield* execOverHttp(statement, request, values).pipe(
      Effect.catchAll((error): Effect.Effect<never, EngineError | E> =>
        Option.isSome(bodyFailure) ? Effect.failCause(bodyFailure.value) : Effect.fail(error)
      )
    )
  })

const isBlank = (bytes: Uint8Array) =>
  bytes.every((byte) => byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09)

/**
 * One call on the statement's session, its settings in the statement itself: through
 * chDB's raw insert (the body as bytes) for the formats it takes, else as the end of the
 * statement's text (JSONAsObject). The client adapter cost far more per small insert (a
 * stream, a session `SET`, a statement). chDB reports no counts for an insert (the
 * adapter's summary was zeros too).
 */
const natively = (
  native: NativeSession,
  statement: Statement,
  request: InsertRequest,
  body: Buffer | BodyFile
): Effect.Effect<InsertSummary, EngineError> =>
  Effect.gen(function* () {
    const raw = native.insertFormats.has(request.format)
    // As the text path: a body of nothing but whitespace inserts nothing, successfully.
    if (raw && body instanceof Uint8Array && isBlank(body)) {
      statement.settle(true)
      return new InsertSummary({ writtenRows: 0, writtenBytes: 0 })
    }
    yield* Effect.tryPromise({
      try: (): Promise<unknown> =>
        raw || !(body instanceof Uint8Array)
          ? native.insert({
              request,
              body,
              settings: statement.settings,
              signal: statement.signal
            })
          : native.once(
              `${Sql.insertStatement(request, statement.settings)}\n${body.toString("utf8")}`,
              "TabSeparated",
              statement.signal
            ),
      catch: statement.failure
    }).pipe(Effect.onExit((exit) => Effect.sync(() => statement.settle(Exit.isSuccess(exit)))))
    return new InsertSummary({ writtenRows: 0, writtenBytes: 0 })
  })

export const run = <E>(
  statement: Statement,
  request: InsertRequest,
  body: Stream.Stream<Uint8Array, E>
): Effect.Effect<InsertSummary, EngineError | E, Scope.Scope> => {
  const native = statement.native
  return native === undefined
    ? overHttp(statement, request, body)
    : Effect.flatMap(wholeBody(body), (bytes) => natively(native, statement, request, bytes))
}

/**
 * A body held whole, in memory or in a file its caller wrote: on chDB one native call (a
 * file the engine reads as it is, `INSERT … FROM INFILE`), no stream run at all.
 */
export const whole = (
  statement: Statement,
  request: InsertRequest,
  body: Uint8Array | BodyFile
): Effect.Effect<InsertSummary, EngineError, Scope.Scope> => {
  const held = body instanceof Uint8Array ? asBuffer(body) : body
  if (statement.native !== undefined) return natively(statement.native, statement, request, held)
  // The bytes as the request's body as they are: a stream around them cost the runtime's
  // operations per pull, where the client only writes them.
  const values =
    held instanceof Uint8Array
      ? Readable.from([held], { objectMode: false })
      : fs.createReadStream(held.file)
  return execOverHttp(statement, request, values)
}
