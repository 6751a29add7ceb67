/**
 * Runs one user query: limits and the guard first, then the engine under `readonly=1`
 * (applied last, so nothing in the query can lift it). The first chunk is awaited before
 * answering, so a query the engine refuses is a clean 4xx; the rest streams as the
 * engine produces it, and the query stays registered for cancel until it ends.
 */
import { HttpServerResponse } from "@effect/platform"
import { Effect, Exit, Option, Scope, Stream } from "effect"
import type { Chunk } from "effect"
import { EngineError, QueryRequest as EngineQuery } from "../../domain/Engine.js"
import type { AnalyticalEngine } from "../../domain/Engine.js"
import type { QueryFormat } from "../../domain/api/QueryApi.js"
import { BadRequest } from "../../domain/Errors.js"
import type { ApiError } from "../../domain/Errors.js"
import { abortResponse } from "../http/AbortResponse.js"
import { QUERY_SETTINGS } from "../tables/Layout.js"
import { contentType } from "./QueryFormats.js"
import { toApiError } from "./QueryErrors.js"
import type { QueryLimits } from "./QueryErrors.js"
import { guard } from "./QueryGuard.js"
import { reshapeJson } from "./JsonResult.js"
import { HINTS_HEADER, hintsHeader } from "./Hints.js"
import type { QueryScope, RunningQueries } from "./RunningQueries.js"

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

/**
 * The result limit counts the bytes we send: chDB's streaming path does not apply
 * `max_result_bytes`. Past the first chunk a streamed response can only end early.
 */
const tooLarge = (max: number) =>
  new EngineError({
    message: `The result is larger than ${max} bytes.`,
    type: "TOO_MANY_ROWS_OR_BYTES"
  })

const limitBytes = (result: Stream.Stream<Uint8Array, EngineError>, max: number) => {
  let sent = 0
  return Stream.mapChunksEffect(result, (chunk) => {
    for (const bytes of chunk) sent += bytes.length
    return sent <= max ? Effect.succeed(chunk) : Effect.fail(tooLarge(max))
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

type Pull = Effect.Effect<Chunk.Chunk<Uint8Array>, Option.Option<EngineError>>

/** The next piece of a result, or `None` at its end. */
const nextPiece = (
  pull: Pull
): Effect.Effect<Option.Option<Chunk.Chunk<Uint8Array>>, EngineError> =>
  pull.pipe(
    Effect.map(Option.some),
    Effect.catchAll((end) =>
      Option.isNone(end) ? Effect.succeed(Option.none()) : Effect.fail(end.value)
    )
  )

/** The whole result from its first piece on, as one buffer of at most `max` bytes. */
const readRest = (first: Option.Option<Chunk.Chunk<Uint8Array>>, pull: Pull, max: number) =>
  Effect.gen(function* () {
    const pieces: Array<Uint8Array> = []
    let size = 0
    let next = first
    while (Option.isSome(next)) {
      for (const bytes of next.value) {
        pieces.push(bytes)
        size += bytes.length
      }
      if (size > max) return yield* tooLarge(max)
      next = yield* nextPiece(pull)
    }
    return pieces.length === 1 ? pieces[0]! : Buffer.concat(pieces)
  })

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
    const failed = (error: EngineError): Effect.Effect<never, ApiError> =>
      Effect.flatMap(
        toApiError(error, {
          engine: run.engine,
          database: run.scope.database,
          engineDatabase: run.engineDatabase,
          limits: run.limits
        }),
        Effect.fail
      )
    const scope = yield* Scope.make()
    const opened = yield* Effect.gen(function* () {
      yield* run.running.register(run.scope, run.queryId, {
        stop: Effect.asVoid(run.engine.cancel(engineQueryId))
      })
      // A JSON result is limited as it is read whole (`readRest`), others as they stream.
      const result = run.engine.query(request)
      const pull = yield* Stream.toPull(
        run.format === "JSON" ? result : limitBytes(result, run.limits.maxResultBytes)
      )
      return { pull, first: yield* nextPiece(pull) }
    }).pipe(
      Scope.extend(scope),
      Effect.catchTag("EngineError", failed),
      Effect.onExit((exit) => (Exit.isSuccess(exit) ? Effect.void : Scope.close(scope, exit)))
    )
    const hints = yield* run.hints
    const headers: Record<string, string> = { [QUERY_ID_HEADER]: run.queryId }
    if (hints.length > 0) headers[HINTS_HEADER] = hintsHeader(hints)
    if (run.format === "JSON") {
      // Pulled to the end here rather than through a stream pipeline: usually one piece.
      const json = yield* readRest(opened.first, opened.pull, run.limits.maxResultBytes).pipe(
        Effect.flatMap((bytes) => reshapeJson(bytes, hints)),
        Effect.catchTag("EngineError", failed),
        Effect.ensuring(Scope.close(scope, Exit.void))
      )
      return HttpServerResponse.text(json, { contentType: contentType("JSON"), headers })
    }
    const abort = yield* abortResponse
    const rest = Option.isNone(opened.first)
      ? Stream.empty
      : Stream.concat(
          Stream.fromChunk(opened.first.value),
          Stream.repeatEffectChunkOption(opened.pull)
        )
    const body = rest.pipe(
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
    return HttpServerResponse.stream(body, { contentType: contentType(run.format), headers })
  })
