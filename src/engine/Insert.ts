/**
 * Streams an Effect `Stream` into `INSERT … FORMAT …`. Over HTTP the body is never held
 * whole; chDB takes an insert's data only whole, so there the body is gathered and the
 * statement runs as one native call on its session: as bytes through chDB's raw insert
 * for the formats it takes, else as the end of the statement's text.
 */
import { Cause, Chunk, Effect, Exit, Option, Stream } from "effect"
import type { Scope } from "effect"
import { Readable } from "node:stream"
import { InsertSummary } from "../../domain/Engine.js"
import type { EngineError, InsertRequest } from "../../domain/Engine.js"
import * as Sql from "./Sql.js"
import type { NativeSession, Statement } from "./Statements.js"

/**
 * chDB's raw insert, for the formats it takes: the body, read whole (the SQL path holds
 * it whole too, as text), goes to the engine as bytes, the table and settings in the
 * statement's head. chDB reports no counts for it, as for the SQL path.
 */
const rawInsert = <E>(
  statement: Statement,
  native: NativeSession,
  request: InsertRequest,
  body: Stream.Stream<Uint8Array, E>
): Effect.Effect<InsertSummary, EngineError | E> =>
  Effect.gen(function* () {
    const chunks = yield* Stream.runCollect(body)
    const bytes = Buffer.concat(Chunk.toReadonlyArray(chunks))
    // As the SQL path: a body of nothing but whitespace inserts nothing, successfully.
    if (bytes.every((byte) => byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09)) {
      statement.settle(true)
      return new InsertSummary({ writtenRows: 0, writtenBytes: 0 })
    }
    yield* Effect.tryPromise({
      try: () =>
        native.insert({
          table: `${request.database}.${request.table}`,
          columns: request.columns,
          format: request.format,
          bytes,
          settings: statement.settings,
          signal: statement.signal
        }),
      catch: statement.failure
    }).pipe(Effect.onExit((exit) => Effect.sync(() => statement.settle(Exit.isSuccess(exit)))))
    return new InsertSummary({ writtenRows: 0, writtenBytes: 0 })
  })

const overHttp = <E>(
  statement: Statement,
  request: InsertRequest,
  body: Stream.Stream<Uint8Array, E>
): Effect.Effect<InsertSummary, EngineError | E, Scope.Scope> =>
  Effect.gen(function* () {
    // The client sees the body fail as a thrown error; keep the typed one to return.
    let bodyFailure: Option.Option<Cause.Cause<E>> = Option.none()
    const recordBodyFailure = (cause: Cause.Cause<E>) =>
      Effect.sync(() => {
        if (!Cause.isInterruptedOnly(cause)) bodyFailure = Option.some(cause)
      })
    const values = Readable.from(
      Stream.toAsyncIterable(Stream.tapErrorCause(body, recordBodyFailure)),
      { objectMode: false }
    )
    yield* Effect.addFinalizer(() => Effect.sync(() => values.destroy()))
    const summary = yield* Effect.tryPromise({
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
        return result.summary
      },
      catch: statement.failure
    }).pipe(
      Effect.onExit((exit) => Effect.sync(() => statement.settle(Exit.isSuccess(exit)))),
      Effect.catchAll((error): Effect.Effect<never, EngineError | E> =>
        Option.isSome(bodyFailure) ? Effect.failCause(bodyFailure.value) : Effect.fail(error)
      )
    )
    return new InsertSummary({
      writtenRows: Number(summary?.written_rows ?? 0),
      writtenBytes: Number(summary?.written_bytes ?? 0)
    })
  })

const decoder = new TextDecoder()

/**
 * Any other format (JSONAsObject): one call, settings in the statement's `SETTINGS` clause (its session is its own, so
 * nothing needs setting up first). The client adapter took about 8 ms more per insert
 * (a stream, a session `SET`, a statement), measured on 1-record inserts.
 */
const natively = <E>(
  native: NativeSession,
  statement: Statement,
  request: InsertRequest,
  body: Stream.Stream<Uint8Array, E>
): Effect.Effect<InsertSummary, EngineError | E> =>
  Effect.gen(function* () {
    const pieces = Chunk.toReadonlyArray(yield* Stream.runCollect(body))
    const data =
      pieces.length === 1 ? decoder.decode(pieces[0]) : Buffer.concat(pieces).toString("utf8")
    const sql = `${Sql.insertStatement(request, statement.settings)}\n${data}`
    yield* Effect.tryPromise({
      try: () => native.once(sql, "TabSeparated", statement.signal),
      catch: statement.failure
    }).pipe(Effect.onExit((exit) => Effect.sync(() => statement.settle(Exit.isSuccess(exit)))))
    // chDB reports no counters for an insert (the client adapter's summary was zeros too).
    return new InsertSummary({ writtenRows: 0, writtenBytes: 0 })
  })

export const run = <E>(
  statement: Statement,
  request: InsertRequest,
  body: Stream.Stream<Uint8Array, E>
): Effect.Effect<InsertSummary, EngineError | E, Scope.Scope> =>
  statement.native === undefined
    ? overHttp(statement, request, body)
    : statement.native.insertFormats.has(request.format)
      ? rawInsert(statement, statement.native, request, body)
      : natively(statement.native, statement, request, body)
