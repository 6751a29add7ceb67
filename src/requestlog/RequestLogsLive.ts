/** `RequestLogs` over the control plane's `request_logs` (`RequestLogStore`). */
import { DateTime, Effect, Either, Layer } from "effect"
import { LogsPage } from "../../domain/api/LogsApi.js"
import { BadRequest } from "../../domain/Errors.js"
import { RequestLogs } from "../../domain/RequestLogs.js"
import { toLogEntry } from "./LogRecord.js"
import { parseSearch } from "./LogSearch.js"
import { RequestLogStore } from "./RequestLogStore.js"

// An empty value (`paths=`) is no filter, as an empty `search` is.
const nonEmpty = (items: ReadonlyArray<string> | undefined) => {
  const kept = items?.filter((item) => item !== "")
  return kept === undefined || kept.length === 0 ? undefined : kept
}

export const RequestLogsLive = Layer.effect(
  RequestLogs,
  Effect.gen(function* () {
    const store = yield* RequestLogStore
    return RequestLogs.of({
      list: (scope, f) =>
        Effect.gen(function* () {
          const search =
            f.search === undefined || f.search.trim() === "" ? undefined : parseSearch(f.search)
          if (search !== undefined && Either.isLeft(search)) {
            return yield* new BadRequest({
              message: search.left,
              hint: "search understands status:, origin:, type:, table: and hints: tokens beside free text."
            })
          }
          const page = yield* store.list({
            organizationId: scope.organizationId,
            clusterId: scope.clusterId,
            start: f.start_time === undefined ? undefined : DateTime.toDate(f.start_time),
            end: f.end_time === undefined ? undefined : DateTime.toDate(f.end_time),
            search: search?.right,
            methods: f.methods,
            statusCodes: f.status_codes,
            sources: f.sources,
            userAgent: f.user_agent,
            levels: f.levels,
            host: f.host === "" ? undefined : f.host,
            paths: nonEmpty(f.paths),
            minDurationMs: f.min_duration_ms,
            maxDurationMs: f.max_duration_ms,
            databases: nonEmpty(f.log_databases),
            limit: f.limit,
            offset: f.offset
          })
          return new LogsPage({
            logs: page.records.map(toLogEntry),
            has_more: page.hasMore,
            next_offset: page.hasMore ? f.offset + page.records.length : null
          })
        })
    })
  })
)
