/**
 * `POST /v1/tables/{t}?url=…` (decisions.md §6): fetch the file through the guarded
 * fetcher and insert it. The fetch starts before the response, so a refused address,
 * a bad URL or an unknown format is an HTTP error; after that, with
 * `accept: application/x-ndjson` the response streams `started`, `progress` (each
 * second) and `done` or `error` lines, otherwise it is one `{inserted}`.
 */
import { HttpServerResponse } from "@effect/platform"
import type { HttpServerRequest } from "@effect/platform"
import { Cause, Effect, Exit, Fiber, Schedule, Scope, Stream } from "effect"
import type { AnalyticalEngine } from "../../domain/Engine.js"
import { BadRequest, errorBody } from "../../domain/Errors.js"
import type { ApiError } from "../../domain/Errors.js"
import { isEmbedded, SluiceConfig } from "../config/SluiceConfig.js"
import { parseAllowList } from "./SsrfGuard.js"
import type { UrlFetchLimits } from "./UrlFetch.js"
import { fetchUrl } from "./UrlFetch.js"
import { detectKind } from "./UrlFetchFormat.js"
import type { LoadCounters } from "./UrlFetchLoad.js"
import { loadFetched } from "./UrlFetchLoad.js"
import type { SchemalessTables } from "../tables/SchemalessTables.js"
import type { TableLocks } from "./TableLocks.js"
import { RunningQueries } from "../query/RunningQueries.js"
import type { QueryScope } from "../query/RunningQueries.js"

export interface UrlInsertTarget {
  readonly engine: AnalyticalEngine
  /** The engine's name of the selected database. */
  readonly database: string
  readonly table: string
  readonly url: string
  readonly transform: string | undefined
  /** `insert_deduplication_token` or the `idempotency-key` header. */
  readonly token?: string | undefined
  readonly request: HttpServerRequest.HttpServerRequest
  /** Who asked, for `POST /v1/query/cancel` with the id of the `started` line. */
  readonly scope: QueryScope
}

const line = (event: object) => new TextEncoder().encode(JSON.stringify(event) + "\n")

const errorEvent = (cause: Cause.Cause<ApiError>) => {
  const failure = Cause.failureOption(cause)
  if (failure._tag === "Some") return { type: "error", ...errorBody(failure.value) }
  return Cause.isInterruptedOnly(cause)
    ? {
        type: "error",
        error: "cancelled",
        message: "The load was cancelled.",
        hint: ""
      }
    : {
        type: "error",
        error: "internal",
        message: "The insert failed on our side.",
        hint: "Retry; if it keeps failing, report it."
      }
}

export class UrlIngest extends Effect.Service<UrlIngest>()("sluice/UrlIngest", {
  effect: Effect.gen(function* () {
    const config = yield* SluiceConfig
    const parsed = parseAllowList(config.urlIngest.allow)
    if (parsed._tag === "Left") return yield* Effect.die(parsed.error)
    const limits: UrlFetchLimits = {
      allow: parsed.list,
      maxBytes: config.urlIngest.maxBytes,
      timeoutSeconds: config.urlIngest.timeoutSeconds
    }
    const localFiles = isEmbedded(config)
    const running = yield* RunningQueries

    return {
      /** Serves the insert; fails with the HTTP error when the file cannot be opened. */
      insert: Effect.fn("UrlIngest.insert")(function* (target: UrlInsertTarget) {
        if (target.transform !== undefined) {
          return yield* new BadRequest({
            message: "transform cannot be combined with url.",
            hint: "Transform the data before hosting it, then insert it by url without transform."
          })
        }
        if (Number(target.request.headers["content-length"] ?? "0") > 0) {
          return yield* new BadRequest({
            message: "An insert with url takes no body.",
            hint: "Send either the records as the body or a url, not both."
          })
        }
        const scope = yield* Scope.make()
        const close = Scope.close(scope, Exit.void)
        const opened = yield* Effect.gen(function* () {
          const fetched = yield* fetchUrl(target.url, limits)
          const kind = yield* detectKind(fetched.url, fetched.contentType, fetched.contentEncoding)
          return { fetched, kind }
        }).pipe(
          Scope.extend(scope),
          Effect.onError(() => close)
        )
        const counters: LoadCounters = { readBytes: 0, rows: 0 }
        const load = loadFetched({
          engine: target.engine,
          database: target.database,
          table: target.table,
          fetched: opened.fetched,
          kind: opened.kind,
          maxBytes: limits.maxBytes,
          localFiles,
          counters,
          token: target.token
        })
        const accept = target.request.headers["accept"] ?? ""
        if (!accept.includes("application/x-ndjson")) {
          const inserted = yield* load.pipe(Effect.ensuring(close))
          return HttpServerResponse.unsafeJson({ inserted })
        }
        const queryId = crypto.randomUUID()
        const context = yield* Effect.context<SchemalessTables | TableLocks>()
        const progress = () => ({
          type: "progress",
          written_rows: counters.rows,
          read_bytes: counters.readBytes,
          total_bytes: opened.fetched.contentLength ?? null
        })
        const events = Stream.unwrapScoped(
          Effect.gen(function* () {
            const fiber = yield* Effect.forkScoped(load)
            // Interrupting the load ends its engine statement and leaves the table as it was.
            yield* running.register(target.scope, queryId, {
              stop: Effect.asVoid(Fiber.interrupt(fiber))
            })
            const ticks = Stream.repeatEffectWithSchedule(
              Effect.sync(progress),
              Schedule.spaced("1 second")
            ).pipe(Stream.drop(1), Stream.interruptWhen(Fiber.await(fiber)))
            const end = Stream.fromEffect(
              Fiber.join(fiber).pipe(
                Effect.map((inserted) => ({
                  type: "done",
                  written_rows: inserted,
                  read_bytes: counters.readBytes
                })),
                Effect.catchAllCause((cause) => Effect.succeed(errorEvent(cause)))
              )
            )
            const started: object = {
              type: "started",
              query_id: queryId,
              format: opened.kind.format
            }
            return Stream.make(started).pipe(Stream.concat(ticks), Stream.concat(end))
          })
        ).pipe(Stream.map(line), Stream.ensuring(close), Stream.provideContext(context))
        return HttpServerResponse.stream(events, { contentType: "application/x-ndjson" })
      })
    }
  }),
  dependencies: [RunningQueries.Default]
}) {}
