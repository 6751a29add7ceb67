/**
 * Runs one user query: limits and the guard first, then the engine under `readonly=1`
 * (applied last, so nothing in the query can lift it). A `JSON` result is one document,
 * asked for whole; other formats stream as the engine produces them, unless the result
 * ends within its first two pieces, which go out whole. Either way a query
 * the engine refuses is a clean 4xx, and the query stays registered for cancel until its
 * result is read.
 */
import { HttpServerResponse } from "@effect/platform"
import { Chunk, Effect, Exit, Option, Scope, Stream } from "effect"
import { QueryRequest as EngineQuery } from "../../domain/Engine.js"
import type { AnalyticalEngine, EngineError } from "../../domain/Engine.js"
import type { QueryFormat } from "../../domain/api/QueryApi.js"
import { BadRequest } from "../../domain/Errors.js"
import type { ApiError } from "../../domain/Errors.js"
import { abortResponse } from "../http/AbortResponse.js"
import { resultTooLarge } from "../engine/EngineMessage.js"
import { QUERY_SETTINGS } from "../tables/Layout.js"
import { contentType } from "./QueryFormats.js"
import { toApiError } from "./QueryErrors.js"
import type { QueryLimits } from "./QueryErrors.js"
import { guard } from "./QueryGuard.js"
import { reshapeJson } from "./JsonResult.js"
import { HINTS_HEADER, hintsHeader } from "./Hints.js"
import type { QueryScope, Running, RunningQueries } from "./RunningQueries.js"

export const QUERY_ID_HEADER = "x-service-query-id"

export interface QueryRun {
  readonly engine: AnalyticalEngine
  readonly running: RunningQueries
  readonly scope: QueryScope
  readonly engineDatabase: string
  readonly limits: QueryLimits & { readonly maxSqlBytes: number }
  readonly sql: string
  readonly format: QueryFormat
  readonly queryId: string
  /** The result's hints (decisions.md §5); asked only once the engine has accepted the query. */
  readonly hints: Effect.Effect<ReadonlyArray<string>>
}

const checkSize = (sql: string, max: number) =>
  Buffer.byteLength(sql) > max
    ? Effect.fail(
        new BadRequest({
          message: `The SQL is ${Buffer.byteLength(sql)} bytes; at most ${max} are accepted.`,
          hint: "Shorten the statement (the limit is SLUICE_QUERY_MAX_SQL_BYTES)."
        })
      )
    : Effect.void

/** chDB's streaming path does not apply `max_result_bytes`: the bytes we send are counted. */
const limitBytes = (result: Stream.Stream<Uint8Array, EngineError>, max: number) => {
  let sent = 0
  return Stream.mapChunksEffect(result, (chunk) => {
    for (const bytes of chunk) sent += bytes.length
    return sent <= max ? Effect.succeed(chunk) : Effect.fail(resultTooLarge(max))
  })
}

/**
 * The last line of a streamed result that failed after its headers went out (the result
 * or time limit passed): the error in the format's own terms, as ClickHouse writes it,
 * `{"exception": …}` for JSON rows and the message itself for text formats. The
 * connection then closes without completing the response (`abortResponse`).
 */
const errorLine = (format: QueryFormat, error: ApiError): Uint8Array => {
  const text = error.hint === "" ? error.message : `${error.message} ${error.hint}`
  return Buffer.from(
    format.startsWith("JSON")
      ? `${JSON.stringify({ exception: text })}\n`
      : `\n${text.replace(/\s+/g, " ")}\n`
  )
}

/** A `JSON` result is one document, reshaped whole (`reshapeJson`), so it is asked for whole. */
const jsonResult = (run: QueryRun, request: EngineQuery, registration: Running, failed: Failed) =>
  Effect.gen(function* () {
    // Registered around the call rather than for a scope: a scope's finalizer costs a
    // diff of the fiber's whole context when it runs (~0.25 ms of a small query here).
    const bytes = yield* run.running
      .whileRegistered(
        run.scope,
        run.queryId,
        registration,
        run.engine.queryWhole(request, run.limits.maxResultBytes)
      )
      .pipe(Effect.catchTag("EngineError", failed))
    const hints = yield* run.hints
    const json = yield* reshapeJson(bytes, hints).pipe(Effect.catchTag("EngineError", failed))
    return HttpServerResponse.text(json, {
      contentType: contentType("JSON"),
      headers: responseHeaders(run.queryId, hints)
    })
  })

/** The next piece of a pulled result; `None` once it has ended. */
const nextPiece = <E>(pull: Effect.Effect<Chunk.Chunk<Uint8Array>, Option.Option<E>>) =>
  pull.pipe(
    Effect.map(Option.some),
    // The stream's end (`None`) is not a failure.
    Effect.catchAll((end) =>
      Option.isNone(end) ? Effect.succeed(Option.none()) : Effect.fail(end.value)
    )
  )

const piecesOf = Option.getOrElse(() => Chunk.empty<Uint8Array>())

/**
 * Other formats stream. The first two pieces are read before answering: a result that
 * ends within them (most small results) goes out whole, and a query the engine refuses,
 * or that fails in its second piece, is a clean 4xx. Past them a failure can only end the
 * response early. A cluster worker holds one piece back to mark the last, so its second
 * piece follows the first by one round trip; an engine that sends blocks as it makes them
 * (a ClickHouse server) answers later by the wait for its second block.
 * Whole, a small result skips the streamed response's machinery (about 0.2 ms of a small
 * CSV query, measured) and carries its length.
 */
const streamedResult = (
  run: QueryRun,
  request: EngineQuery,
  registration: Running,
  failed: Failed
) =>
  Effect.gen(function* () {
    const scope = yield* Scope.make()
    const opened = yield* Effect.gen(function* () {
      yield* run.running.register(run.scope, run.queryId, registration)
      const pull = yield* Stream.toPull(
        limitBytes(run.engine.query(request), run.limits.maxResultBytes)
      )
      const first = yield* nextPiece(pull)
      const second = Option.isNone(first) ? first : yield* nextPiece(pull)
      return {
        pull,
        read: Chunk.appendAll(piecesOf(first), piecesOf(second)),
        ended: Option.isNone(second)
      }
    }).pipe(
      Scope.extend(scope),
      Effect.catchTag("EngineError", failed),
      Effect.onExit((exit) => (Exit.isSuccess(exit) ? Effect.void : Scope.close(scope, exit)))
    )
    const hints = yield* run.hints
    const options = {
      contentType: contentType(run.format),
      headers: responseHeaders(run.queryId, hints)
    }
    if (opened.ended) {
      // The query is over: its registration and engine stream go before the answer does.
      yield* Scope.close(scope, Exit.void)
      return HttpServerResponse.uint8Array(
        Buffer.concat(Chunk.toReadonlyArray(opened.read)),
        options
      )
    }
    const abort = yield* abortResponse
    const body = Stream.concat(
      Stream.fromChunk(opened.read),
      Stream.repeatEffectChunkOption(opened.pull)
    ).pipe(
      Stream.catchAll((error) =>
        Stream.unwrap(
          Effect.map(Effect.flip(failed(error)), (apiError) =>
            Stream.concat(
              Stream.make(errorLine(run.format, apiError)),
              Stream.drain(Stream.fromEffect(abort))
            )
          )
        )
      ),
      Stream.ensuring(Scope.close(scope, Exit.void))
    )
    return HttpServerResponse.stream(body, options)
  })

const responseHeaders = (queryId: string, hints: ReadonlyArray<string>) => {
  const headers: Record<string, string> = { [QUERY_ID_HEADER]: queryId }
  if (hints.length > 0) headers[HINTS_HEADER] = hintsHeader(hints)
  return headers
}

type Failed = (error: EngineError) => Effect.Effect<never, ApiError>

export const runQuery = (run: QueryRun) =>
  Effect.gen(function* () {
    yield* checkSize(run.sql, run.limits.maxSqlBytes)
    yield* guard(run.sql)
    const engineQueryId = crypto.randomUUID()
    const request = new EngineQuery({
      sql: run.sql,
      format: run.format,
      queryId: engineQueryId,
      database: run.engineDatabase,
      settings: {
        ...QUERY_SETTINGS,
        max_execution_time: run.limits.timeoutSeconds,
        readonly: 1
      }
    })
    const failed: Failed = (error) =>
      Effect.flatMap(
        toApiError(error, {
          engine: run.engine,
          database: run.scope.database,
          engineDatabase: run.engineDatabase,
          limits: run.limits
        }),
        Effect.fail
      )
    // The query stays registered for cancel until its result is read.
    const registration: Running = { stop: Effect.asVoid(run.engine.cancel(engineQueryId)) }
    return yield* run.format === "JSON"
      ? jsonResult(run, request, registration, failed)
      : streamedResult(run, request, registration, failed)
  })
