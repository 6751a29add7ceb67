/**
 * A query's result bytes as the engine produces them. Over HTTP the client streams the
 * server's response; on chDB the statement's own session streams natively, after the
 * settings and the current database are applied to that session.
 */
import { Effect, Option, Stream } from "effect"
import type { Scope } from "effect"
import type { EngineError, OpenedResult, EngineQuery } from "../../domain/Engine.js"
import { resultTooLarge } from "./EngineMessage.js"
import * as Sql from "./Sql.js"
import { acquireRelease } from "../stream/ScopedRelease.js"
import type { NativeSession, Statement } from "./Statements.js"
import { exceptionTagOf, withoutExceptionBlock } from "./StreamedException.js"
import { wholeLines } from "./WholeLines.js"

type Chunks = Effect.Effect<AsyncIterable<Uint8Array>, EngineError>

const overHttp = (statement: Statement, request: EngineQuery, format: string): Chunks =>
  Effect.tryPromise({
    try: async () => {
      const result = await statement.client.exec({
        query: Sql.withFormat(request.sql, format),
        query_id: request.queryId,
        clickhouse_settings: statement.settings,
        abort_signal: statement.signal,
        ...(request.database === undefined
          ? {}
          : { http_headers: { "X-ClickHouse-Database": request.database } })
      })
      const chunks = withoutExceptionBlock(result.stream, exceptionTagOf(result.response_headers))
      return CHUNKS_CONCATENATE.has(format) ? wholeLines(chunks) : chunks
    },
    catch: (error) => {
      const failure = statement.failure(error)
      // The server answered with an error: nothing runs under the id, which may be another
      // statement's (a shared server refuses a second query under a running one's id).
      if (failure.code !== undefined) statement.settle(false)
      return failure
    }
  })

// chDB streams SELECTs only; other read statements (SHOW, EXISTS …) answer in one piece.
const UNSTREAMABLE = /Streaming query is not supported/

// chDB formats every streamed chunk as a whole result: a JSON document, a header line,
// a `meta` record per chunk. Only formats whose chunks concatenate into one valid result
// stream (after `laterChunk`); the others are produced in one piece (bounded by the
// result-size limit). These formats write one row per line.
const CHUNKS_CONCATENATE = new Set([
  "JSONEachRow",
  "JSONCompactEachRow",
  "JSONStringsEachRow",
  "JSONEachRowWithProgress",
  "CSV",
  "TSV",
  "TabSeparated",
  "TSVRaw",
  "TabSeparatedRaw"
])

const META_LINE = Buffer.from('{"meta":')

/**
 * A chunk after the first, made to continue the result: JSONEachRowWithProgress chunks
 * each open with the `meta` line again (after a `progress` line, if any), which the
 * result has once.
 */
const laterChunk = (format: string, chunk: Uint8Array): Uint8Array => {
  if (format !== "JSONEachRowWithProgress") return chunk
  const bytes = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength)
  let lineStart = 0
  for (let line = 0; line < 2 && lineStart < bytes.length; line++) {
    const newline = bytes.indexOf(0x0a, lineStart)
    const lineEnd = newline === -1 ? bytes.length : newline + 1
    if (bytes.subarray(lineStart, lineStart + META_LINE.length).equals(META_LINE)) {
      return Buffer.concat([bytes.subarray(0, lineStart), bytes.subarray(lineEnd)])
    }
    lineStart = lineEnd
  }
  return chunk
}

async function* streamOrOnce(
  native: NativeSession,
  sql: string,
  format: string,
  signal: AbortSignal
) {
  if (!CHUNKS_CONCATENATE.has(format)) {
    yield await native.once(sql, format, signal)
    return
  }
  const iterator = native.stream(sql, format, signal)[Symbol.asyncIterator]()
  try {
    let next: IteratorResult<Uint8Array>
    try {
      next = await iterator.next()
    } catch (error) {
      if (error instanceof Error && UNSTREAMABLE.test(error.message)) {
        yield await native.once(sql, format, signal)
        return
      }
      throw error
    }
    let first = true
    while (next.done !== true) {
      yield first ? next.value : laterChunk(format, next.value)
      first = false
      next = await iterator.next()
    }
  } finally {
    await iterator.return?.()
  }
}

/** `sql` run with our query id marking its end; the engine's messages speak of `sql` alone. */
async function* marked(
  native: NativeSession,
  sql: string,
  queryId: string,
  format: string,
  signal: AbortSignal
) {
  try {
    yield* streamOrOnce(native, Sql.withQueryMarker(sql, queryId), format, signal)
  } catch (error) {
    throw error instanceof Error ? new Error(Sql.withoutMarkerPosition(error.message, sql)) : error
  }
}

const natively = (
  native: NativeSession,
  statement: Statement,
  request: EngineQuery,
  format: string
): Chunks =>
  Effect.tryPromise({
    try: async () => {
      if (statement.setup !== undefined) await native.run(statement.setup)
      // chDB has no query id of its own: ours ends the text, where a kill finds it.
      return marked(
        native,
        Sql.stripTrailingSemicolons(request.sql),
        request.queryId,
        format,
        statement.signal
      )
    },
    catch: statement.failure
  })

/**
 * Pulls the chunks by hand rather than with `Stream.fromAsyncIterable`: that one awaits
 * the iterator's `return()` when interrupted, which for a generator waits behind the
 * pending `next()`, i.e. until the engine ends the query, and the kill that would end it
 * runs only after that finalizer.
 */
const iteratorOf = (chunks: AsyncIterable<Uint8Array>) =>
  acquireRelease(
    Effect.sync(() => chunks[Symbol.asyncIterator]()),
    (iterator) =>
      Effect.sync(() => {
        void iterator.return?.().catch(() => undefined)
      })
  )

const pullFrom = (statement: Statement, iterator: AsyncIterator<Uint8Array>) => {
  const fail = (error: unknown) => {
    statement.settle(false)
    return Option.some(statement.failure(error))
  }
  return Stream.repeatEffectOption(
    Effect.tryPromise({ try: () => iterator.next(), catch: fail }).pipe(
      Effect.flatMap((next) => {
        if (next.done !== true) return Effect.succeed(next.value)
        statement.settle(true)
        return Effect.fail(Option.none())
      })
    )
  )
}

const pull = (statement: Statement, chunks: AsyncIterable<Uint8Array>) =>
  Effect.map(iteratorOf(chunks), (iterator) => pullFrom(statement, iterator))

const chunksOf = (statement: Statement, request: EngineQuery, format: string) =>
  statement.native === undefined
    ? overHttp(statement, request, format)
    : natively(statement.native, statement, request, format)

/** The result stream; the statement settles when it ends. */
export const run = (statement: Statement, request: EngineQuery, format: string) =>
  Effect.flatMap(chunksOf(statement, request, format), (chunks) => pull(statement, chunks))

/** Up to `pieces` pieces of `iterator`, and whether it ended within them. */
const readPieces = async (iterator: AsyncIterator<Uint8Array>, pieces: number) => {
  const head: Array<Uint8Array> = []
  while (head.length < pieces) {
    const next = await iterator.next()
    if (next.done === true) return { head, ended: true }
    head.push(next.value)
  }
  return { head, ended: false }
}

/**
 * The first `pieces` pieces, read in one promise, and the rest as a stream unless the
 * result ended within them (the statement then settles at once).
 */
export const open = (
  statement: Statement,
  request: EngineQuery,
  format: string,
  pieces: number
): Effect.Effect<OpenedResult, EngineError, Scope.Scope> =>
  Effect.gen(function* () {
    const iterator = yield* iteratorOf(yield* chunksOf(statement, request, format))
    const read = yield* Effect.tryPromise({
      try: () => readPieces(iterator, pieces),
      catch: (error) => {
        statement.settle(false)
        return statement.failure(error)
      }
    })
    if (!read.ended) return { head: read.head, rest: pullFrom(statement, iterator) }
    statement.settle(true)
    return { head: read.head, rest: undefined }
  })

/** All of `chunks` in one buffer, or `undefined` once they pass `maxBytes` (reading stops there). */
const readAtMost = async (chunks: AsyncIterable<Uint8Array>, maxBytes: number) => {
  const pieces: Array<Uint8Array> = []
  let size = 0
  for await (const piece of chunks) {
    size += piece.byteLength
    if (size > maxBytes) return undefined
    pieces.push(piece)
  }
  return pieces.length === 1 ? pieces[0]! : Buffer.concat(pieces, size)
}

/**
 * The whole result, read in one promise (no effect per piece). The statement settles once
 * it is read to its end; past `maxBytes` it does not, so its scope's end kills it.
 */
export const whole = (
  statement: Statement,
  request: EngineQuery,
  format: string,
  maxBytes: number
): Effect.Effect<Uint8Array, EngineError> =>
  chunksOf(statement, request, format).pipe(
    Effect.flatMap((chunks) =>
      Effect.tryPromise({
        try: () => readAtMost(chunks, maxBytes),
        catch: (error) => {
          statement.settle(false)
          return statement.failure(error)
        }
      })
    ),
    Effect.flatMap((bytes) => {
      if (bytes === undefined) return Effect.fail(resultTooLarge(maxBytes))
      statement.settle(true)
      return Effect.succeed(bytes)
    })
  )
