/** `GET /v1/logs`: the caller's cluster's request log, newest first, filtered and paged. */
import { HttpApiBuilder } from "@effect/platform"
import { DateTime, Effect } from "effect"
import { requestScopes } from "../http/RequestScope.js"
import { SluiceApi } from "../../domain/Api.js"
import { toLogEntry } from "./LogRecord.js"
import { RequestLogStore } from "./RequestLogStore.js"

export const LogsHttpLive = HttpApiBuilder.group(SluiceApi, "logs", (handlers) =>
  Effect.gen(function* () {
    const scopes = yield* requestScopes
    const store = yield* RequestLogStore
    return handlers.handle("list", ({ urlParams: p }) =>
      Effect.gen(function* () {
        const scope = yield* scopes.clusterScope("read", p)
        const page = yield* store.list({
          organizationId: scope.organizationId,
          clusterId: scope.clusterId,
          start: p.start_time === undefined ? undefined : DateTime.toDate(p.start_time),
          end: p.end_time === undefined ? undefined : DateTime.toDate(p.end_time),
          search: p.search === "" ? undefined : p.search,
          methods: p.methods,
          statusCodes: p.status_codes,
          sources: p.sources,
          userAgent: p.user_agent,
          limit: p.limit,
          offset: p.offset
        })
        return {
          logs: page.records.map(toLogEntry),
          has_more: page.hasMore,
          next_offset: page.hasMore ? p.offset + page.records.length : null
        }
      })
    )
  })
)
