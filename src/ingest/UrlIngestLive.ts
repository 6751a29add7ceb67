/**
 * `UrlIngest`: fetch the file through the guarded fetcher and insert
 * it through `IngestWriter`. The fetch starts before anything is answered, so a refused
 * address, a bad URL or an unknown format fails the call; after that a load with
 * progress reports `Started`, `Progress` each second, and how it ended.
 */
import { Cause, Effect, Exit, Fiber, Layer, Option, Schedule, Scope, Stream } from "effect"
import type { ClusterScope } from "../../domain/Authorization.js"
import { Engines } from "../../domain/Engine.js"
import type { DatabaseName, TableName } from "../../domain/Ids.js"
import { IngestWriter } from "../../domain/IngestWriter.js"
import { UrlIngest } from "../../domain/UrlIngest.js"
import type { LoadEvent, LoadFailure, UrlSource } from "../../domain/UrlIngest.js"
import { engineAccessError } from "../engine/EngineAccess.js"
import { enginesEmbedded, SluiceConfig } from "../config/SluiceConfig.js"
import { parseAllowList } from "../config/UrlAllowList.js"
import { RunningQueries } from "../query/RunningQueries.js"
import type { UrlFetchLimits } from "./UrlFetch.js"
import { fetchUrl } from "./UrlFetch.js"
import { detectKind } from "./UrlFetchFormat.js"
import type { LoadCounters } from "./UrlFetchLoad.js"
import { loadFetched } from "./UrlFetchLoad.js"
import { refuseOtherLayout } from "../otlp/TableKindRefusal.js"

/**
 * How a load ended. A defect is logged with a trace id that its event carries, as the
 * HTTP edge does for a request's: the answer has started, so the edge never sees it.
 */
const ended = (cause: Cause.Cause<LoadFailure>): Effect.Effect<LoadEvent> => {
  const failure = Cause.failureOption(cause)
  if (failure._tag === "Some") return Effect.succeed({ _tag: "Failed", error: failure.value })
  if (Cause.isInterruptedOnly(cause)) return Effect.succeed({ _tag: "Cancelled" })
  return Effect.gen(function* () {
    const span = yield* Effect.option(Effect.currentSpan)
    const traceId = Option.match(span, {
      onNone: () => crypto.randomUUID().replaceAll("-", ""),
      onSome: (s) => s.traceId
    })
    yield* Effect.logError("URL load failed", cause).pipe(Effect.annotateLogs("trace_id", traceId))
    return { _tag: "Crashed", traceId } as const
  })
}

export const UrlIngestLive = Layer.effect(
  UrlIngest,
  Effect.gen(function* () {
    const config = yield* SluiceConfig
    const parsed = parseAllowList(config.urlIngest.allow)
    if (parsed._tag === "Left") return yield* Effect.die(parsed.error)
    const limits: UrlFetchLimits = {
      allow: parsed.list,
      maxBytes: config.urlIngest.maxBytes,
      timeoutSeconds: config.urlIngest.timeoutSeconds
    }
    const localFiles = enginesEmbedded(config)
    const running = yield* RunningQueries
    const writer = yield* IngestWriter
    const engines = yield* Engines

    /** The fetched file and its load; the fetch stays open until `close`. */
    const open = Effect.fnUntraced(function* (
      scope: ClusterScope,
      database: DatabaseName,
      table: TableName,
      source: UrlSource
    ) {
      const engine = yield* engines
        .forCluster(scope.clusterId)
        .pipe(Effect.mapError(engineAccessError))
      // Before the fetch, so that a load into a table of another layout is a refusal, not
      // a stream that ends in one.
      yield* refuseOtherLayout(table, yield* writer.tableKind(scope, database, table))
      const fetchScope = yield* Scope.make()
      const close = Scope.close(fetchScope, Exit.void)
      const { fetched, kind } = yield* Effect.gen(function* () {
        const fetched = yield* fetchUrl(source.url, limits)
        const kind = yield* detectKind(fetched.url, fetched.contentType, fetched.contentEncoding)
        return { fetched, kind }
      }).pipe(
        Scope.extend(fetchScope),
        Effect.onError(() => close)
      )
      const counters: LoadCounters = { readBytes: 0, rows: 0 }
      const load = loadFetched({
        writer,
        engine,
        scope,
        database,
        table,
        fetched,
        kind,
        maxBytes: limits.maxBytes,
        localFiles,
        counters,
        token: source.token
      })
      return { fetched, kind, counters, load, close }
    })

    const insert = Effect.fn("UrlIngest.insert")(function* (
      scope: ClusterScope,
      database: DatabaseName,
      table: TableName,
      source: UrlSource
    ) {
      const opened = yield* open(scope, database, table, source)
      return { inserted: yield* Effect.ensuring(opened.load, opened.close) }
    })

    const insertWithProgress = Effect.fn("UrlIngest.insertWithProgress")(function* (
      scope: ClusterScope,
      database: DatabaseName,
      table: TableName,
      source: UrlSource
    ) {
      const { fetched, kind, counters, load, close } = yield* open(scope, database, table, source)
      const queryId = crypto.randomUUID()
      const progress = (): LoadEvent => ({
        _tag: "Progress",
        writtenRows: counters.rows,
        readBytes: counters.readBytes,
        totalBytes: fetched.contentLength
      })
      const owner = { organizationId: scope.organizationId, clusterId: scope.clusterId, database }
      return Stream.unwrapScoped(
        Effect.gen(function* () {
          const fiber = yield* Effect.forkScoped(load)
          // Interrupting the load ends its engine statement and leaves the table as it was.
          // A fresh id is never taken, so its registration cannot conflict.
          yield* Effect.orDie(
            running.register(owner, queryId, { stop: Effect.asVoid(Fiber.interrupt(fiber)) })
          )
          const ticks = Stream.repeatEffectWithSchedule(
            Effect.sync(progress),
            Schedule.spaced("1 second")
          ).pipe(Stream.drop(1), Stream.interruptWhen(Fiber.await(fiber)))
          const end = Stream.fromEffect(
            Fiber.join(fiber).pipe(
              Effect.map((inserted): LoadEvent => ({
                _tag: "Done",
                writtenRows: inserted,
                readBytes: counters.readBytes
              })),
              Effect.catchAllCause(ended)
            )
          )
          const started: LoadEvent = { _tag: "Started", queryId, format: kind.format }
          return Stream.make(started).pipe(Stream.concat(ticks), Stream.concat(end))
        })
      ).pipe(Stream.ensuring(close))
    })

    return UrlIngest.of({ insert, insertWithProgress })
  })
)
