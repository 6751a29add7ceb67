/** Streams an Effect `Stream` into `INSERT … FORMAT …` without holding it whole. */
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

export const run = <E>(
  statement: Statement,
  request: InsertRequest,
  body: Stream.Stream<Uint8Array, E>
): Effect.Effect<InsertSummary, EngineError | E, Scope.Scope> =>
  Effect.gen(function* () {
    if (statement.native !== undefined && statement.native.insertFormats.has(request.format))
      return yield* rawInsert(statement, statement.native, request, body)
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
    // chDB's connection reports zeros: it runs the insert as one query and keeps only
    // that query's read counters.
    return new InsertSummary({
      writtenRows: Number(summary?.written_rows ?? 0),
      writtenBytes: Number(summary?.written_bytes ?? 0)
    })
  })
