/**
 * `QueryRunner` on the cluster engines: limits and the guard first, then the engine under
 * `readonly=1` (applied last, so nothing in the query can lift it). A `JSON` result is
 * one document, asked for whole, as is any result its caller reads whole; other formats
 * stream as the engine produces them, unless the result ends within its first two
 * pieces, which are then answered whole.
 * Either way a query the engine refuses fails before anything is answered, and the query
 * stays registered for cancel until its result is read.
 */
import { Chunk, Effect, Exit, Layer, Option, Scope, Stream } from "effect"
import { Engines, EngineQuery } from "../../domain/Engine.js"
import type { AnalyticalEngine, EngineError } from "../../domain/Engine.js"
import { NotFound, QueryRefused, Unavailable } from "../../domain/Errors.js"
import type { Conflict } from "../../domain/Errors.js"
import { Provisioner } from "../../domain/Provisioner.js"
import { QueryRunner } from "../../domain/QueryRunner.js"
import type {
  CompiledStatement,
  QueryFailure,
  QueryOutput,
  QueryStatement
} from "../../domain/QueryRunner.js"
import type { ClusterScope } from "../../domain/Authorization.js"
import type { DatabaseName } from "../../domain/Ids.js"
import { engineAccessError } from "../engine/EngineAccess.js"
import { enginesEmbedded, QueryConfig, SluiceConfig } from "../config/SluiceConfig.js"
import { engineDatabase } from "../databases/EngineDatabase.js"
import { resultTooLarge } from "../engine/EngineMessage.js"
import { reportExplain, reportTables } from "../requestlog/RequestAnnotations.js"
import { QUERY_SETTINGS } from "../tables/Layout.js"
import { makeHints } from "./Hints.js"
import { toQueryFailure } from "./QueryErrors.js"
import { parseStatement } from "./ParsedStatement.js"
import type { ParsedStatement } from "./ParsedStatement.js"
import { guard } from "./QueryGuard.js"
import { engineStatement } from "./DatabaseQualifiers.js"
import { engineRows, reshapeJson } from "./JsonResult.js"
import { queryIdTaken, RunningQueries } from "./RunningQueries.js"
import { SAME_ID_RUNNING, sharedQueryId } from "./SharedQueryIds.js"
import type { QueryScope, Running } from "./RunningQueries.js"

const checkSize = (sql: string, max: number) =>
  Buffer.byteLength(sql) > max
    ? Effect.fail(
        new QueryRefused({
          message: `The SQL is ${Buffer.byteLength(sql)} bytes; at most ${max} are accepted.`,
          hint: "Shorten the statement (the limit is SLUICE_QUERY_MAX_SQL_BYTES)."
        })
      )
    : Effect.void

/** For the request log: the tables a statement reads (`table:`), and whether it explains. */
const reportStatement = (parsed: ParsedStatement) =>
  Effect.zipRight(
    reportTables(parsed.references.tables.map((t) => t.table)),
    parsed.first?.text.toLowerCase() === "explain" ? reportExplain : Effect.void
  )

/**
 * chDB's streaming path does not apply `max_result_bytes`: the bytes we send are counted
 * (`sent` of them already).
 */
const limitBytes = (result: Stream.Stream<Uint8Array, EngineError>, max: number, sent = 0) =>
  Stream.mapChunksEffect(result, (chunk) => {
    for (const bytes of chunk) sent += bytes.length
    return sent <= max ? Effect.succeed(chunk) : Effect.fail(resultTooLarge(max))
  })

const bytesOf = (pieces: ReadonlyArray<Uint8Array>) => {
  let size = 0
  for (const piece of pieces) size += piece.byteLength
  return size
}

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

const encoder = new TextEncoder()

const noHints: Effect.Effect<ReadonlyArray<string>> = Effect.succeed([])

type Failed = (error: EngineError) => Effect.Effect<never, QueryFailure>
/** A failure before the first piece: also the id taken on a shared server. */
type Refused = (error: EngineError) => Effect.Effect<never, QueryFailure | Conflict>

interface Run {
  readonly engine: AnalyticalEngine
  readonly scope: QueryScope
  readonly queryId: string
  readonly request: EngineQuery
  readonly registration: Running
  readonly engineDatabase: string
  readonly failed: Failed
  readonly refused: Refused
  readonly hints: Effect.Effect<ReadonlyArray<string>>
}

export const QueryRunnerLive = Layer.scoped(
  QueryRunner,
  Effect.gen(function* () {
    const engines = yield* Engines
    const provisioner = yield* Provisioner
    const running = yield* RunningQueries
    const shared = !enginesEmbedded(yield* SluiceConfig)
    const limits = yield* QueryConfig
    const hintsOf = yield* makeHints

    /** The result in one piece, as the engine made it, with its hints. */
    const wholeResult = (run: Run) =>
      Effect.gen(function* () {
        // Registered around the call rather than for a scope: a scope's finalizer costs a
        // diff of the fiber's whole context when it runs, a noticeable share of a small
        // query.
        const bytes = yield* running
          .whileRegistered(
            run.scope,
            run.queryId,
            run.registration,
            run.engine.queryWhole(run.request, limits.maxResultBytes)
          )
          .pipe(Effect.catchTag("EngineError", run.refused))
        return { bytes, hints: yield* run.hints }
      })

    /** A `JSON` result is one document, reshaped whole (`reshapeJson`), so it is asked for whole. */
    const jsonResult = (run: Run) =>
      Effect.gen(function* () {
        const { bytes, hints } = yield* wholeResult(run)
        const json = yield* reshapeJson(bytes, hints).pipe(
          Effect.catchTag("EngineError", run.failed)
        )
        const body = encoder.encode(json)
        return { _tag: "Whole", queryId: run.queryId, hints, body } satisfies QueryOutput
      })

    /**
     * Other formats stream. The first two pieces are read before answering: a result that
     * ends within them (most small results) is whole, and a query the engine refuses, or
     * that fails in its second piece, fails cleanly. Past them a failure can only end the
     * stream early. A cluster worker holds one piece back to mark the last, so its second
     * piece follows the first by one round trip; an engine that sends blocks as it makes
     * them (a ClickHouse server) answers later by the wait for its second block.
     */
    const streamedResult = (run: Run) =>
      Effect.gen(function* () {
        const scope = yield* Scope.make()
        const opened = yield* Effect.gen(function* () {
          yield* running.register(run.scope, run.queryId, run.registration)
          const max = limits.maxResultBytes
          if (run.engine.queryOpen !== undefined) {
            const { head, rest } = yield* run.engine.queryOpen(run.request, 2)
            const sent = bytesOf(head)
            if (sent > max) return yield* Effect.fail(resultTooLarge(max))
            return {
              read: head,
              rest: rest === undefined ? undefined : limitBytes(rest, max, sent)
            }
          }
          const pull = yield* Stream.toPull(limitBytes(run.engine.query(run.request), max))
          const first = yield* nextPiece(pull)
          const second = Option.isNone(first) ? first : yield* nextPiece(pull)
          return {
            read: Chunk.toReadonlyArray(Chunk.appendAll(piecesOf(first), piecesOf(second))),
            rest: Option.isNone(second) ? undefined : Stream.repeatEffectChunkOption(pull)
          }
        }).pipe(
          Scope.extend(scope),
          Effect.catchTag("EngineError", run.refused),
          Effect.onExit((exit) => (Exit.isSuccess(exit) ? Effect.void : Scope.close(scope, exit)))
        )
        const hints = yield* run.hints
        if (opened.rest === undefined) {
          // The query is over: its registration and engine stream go before the answer does.
          yield* Scope.close(scope, Exit.void)
          const body = Buffer.concat(opened.read)
          return { _tag: "Whole", queryId: run.queryId, hints, body } satisfies QueryOutput
        }
        const rest = opened.rest.pipe(
          Stream.catchAll((error) => Stream.fromEffect(run.failed(error))),
          Stream.ensuring(Scope.close(scope, Exit.void))
        )
        return {
          _tag: "Streamed",
          queryId: run.queryId,
          hints,
          head: opened.read,
          rest
        } satisfies QueryOutput
      })

    /**
     * The engine's request for `statement` in `database`, and how its failures read. A
     * user's statement (`parsed`) names databases as the user knows them.
     */
    const prepare = Effect.fnUntraced(function* (
      scope: ClusterScope,
      database: DatabaseName,
      statement: Pick<QueryStatement, "sql" | "format" | "queryId">,
      parsed?: ParsedStatement
    ) {
      const engine = yield* engines
        .forCluster(scope.clusterId)
        .pipe(Effect.mapError(engineAccessError))
      const engineDb = engineDatabase(engine, database)
      const queryScope = {
        organizationId: scope.organizationId,
        clusterId: scope.clusterId,
        database
      }
      const engineQueryId = shared
        ? sharedQueryId(queryScope, statement.queryId)
        : crypto.randomUUID()
      const request = new EngineQuery(
        {
          sql: parsed === undefined ? statement.sql : engineStatement(parsed, engine, database),
          format: statement.format,
          queryId: engineQueryId,
          database: engineDb,
          settings: {
            ...QUERY_SETTINGS,
            max_execution_time: limits.timeoutSeconds,
            // A format produced whole (CSVWithNames, JSON …) is made in the engine before a
            // byte of it is counted here: the engine stops it at the limit instead.
            max_result_bytes: limits.maxResultBytes,
            result_overflow_mode: "throw",
            readonly: 1
          }
          // Every field is typed and made here: the constructor's validation only costs.
        },
        true
      )
      const context = { engine, database, engineDatabase: engineDb, limits }
      const failed: Failed = (error) => Effect.flatMap(toQueryFailure(error, context), Effect.fail)
      const r: Run = {
        engine,
        scope: queryScope,
        queryId: statement.queryId,
        request,
        // The query stays registered for cancel until its result is read.
        registration: { stop: Effect.asVoid(engine.cancel(engineQueryId)) },
        failed,
        refused: (error) =>
          error.type === SAME_ID_RUNNING
            ? Effect.fail(queryIdTaken(statement.queryId))
            : failed(error),
        engineDatabase: engineDb,
        hints: noHints
      }
      return r
    })

    // No span of its own: the request's span covers it, and the engine call has its own.
    const run = Effect.fnUntraced(function* (
      scope: ClusterScope,
      database: DatabaseName,
      statement: QueryStatement
    ) {
      const parsed = parseStatement(statement.sql)
      yield* reportStatement(parsed)
      yield* checkSize(statement.sql, limits.maxSqlBytes)
      yield* guard(parsed)
      const prepared = yield* prepare(scope, database, statement, parsed)
      const r: Run = {
        ...prepared,
        hints: hintsOf({
          engine: prepared.engine,
          clusterId: scope.clusterId,
          database,
          engineDatabase: prepared.engineDatabase,
          references: parsed.references
        })
      }
      if (statement.format === "JSON") return yield* jsonResult(r)
      if (statement.whole !== true) return yield* streamedResult(r)
      const { bytes, hints } = yield* wholeResult(r)
      return { _tag: "Whole", queryId: r.queryId, hints, body: bytes } satisfies QueryOutput
    })

    // Sluice's own SQL: no size limit, no hints, read whole as the engine made it. It
    // still passes the guard (read-only, the function catalog): the SQL SPL and PromQL
    // compile carries a caller's words, and a compiler's slip must not reach the host.
    const runCompiled = Effect.fnUntraced(function* (
      scope: ClusterScope,
      database: DatabaseName,
      statement: CompiledStatement
    ) {
      yield* reportTables(statement.tables)
      yield* guard(parseStatement(statement.sql))
      const { bytes } = yield* wholeResult(yield* prepare(scope, database, statement))
      return bytes
    })

    const runCompiledRows = Effect.fnUntraced(function* (
      scope: ClusterScope,
      database: DatabaseName,
      statement: CompiledStatement
    ) {
      yield* reportTables(statement.tables)
      yield* guard(parseStatement(statement.sql))
      const r = yield* prepare(scope, database, {
        sql: statement.sql,
        format: "JSON",
        queryId: statement.queryId
      })
      const { bytes } = yield* wholeResult(r)
      return yield* engineRows(bytes).pipe(Effect.catchTag("EngineError", r.failed))
    })

    /**
     * A query another node started on the shared server: killed there by its engine id,
     * which only a caller of its organization, cluster and database arrives at.
     */
    const cancelShared = (queryScope: QueryScope, queryId: string, notFound: NotFound) =>
      Effect.gen(function* () {
        const engine = yield* Effect.option(provisioner.engine(queryScope.clusterId))
        if (Option.isNone(engine)) return yield* notFound
        const killed = yield* engine.value.cancel(sharedQueryId(queryScope, queryId)).pipe(
          Effect.mapError(
            (error) =>
              new Unavailable({
                message: `The query could not be cancelled: ${error.message}`,
                hint: "Retry the cancel."
              })
          )
        )
        if (!killed) return yield* notFound
      })

    return QueryRunner.of({
      run,
      runCompiled,
      runCompiledRows,
      cancel: (scope, database, queryId) => {
        const queryScope = {
          organizationId: scope.organizationId,
          clusterId: scope.clusterId,
          database
        }
        const here = running.cancel(queryScope, queryId)
        return shared
          ? Effect.catchIf(
              here,
              (e) => e instanceof NotFound,
              (notFound) => cancelShared(queryScope, queryId, notFound)
            )
          : here
      }
    })
  })
)
