/** `GET /v1/logs`: the caller's cluster's request log, newest first, filtered and paged. */
import { HttpApiBuilder } from "@effect/platform"
import { DateTime, Effect, Either } from "effect"
import { requestScopes } from "../http/RequestScope.js"
import { SluiceApi } from "../../domain/Api.js"
import { LOGS_PARAM_NAMES } from "../../domain/api/LogsApi.js"
import { BadRequest } from "../../domain/Errors.js"
import { toLogEntry } from "./LogRecord.js"
import { parseSearch } from "./LogSearch.js"
import { RequestLogStore } from "./RequestLogStore.js"

const known = new Set(LOGS_PARAM_NAMES)

// A parameter this endpoint does not know is a filter it cannot honour: refused rather
// than answered unfiltered.
const unknownParams = (url: string) => {
  const query = url.indexOf("?") === -1 ? "" : url.slice(url.indexOf("?") + 1)
  return [...new Set(new URLSearchParams(query).keys())].filter((name) => !known.has(name))
}

// An empty value (`paths=`) is no filter, as an empty `search` is.
const nonEmpty = (items: ReadonlyArray<string> | undefined) => {
  const kept = items?.filter((item) => item !== "")
  return kept === undefined || kept.length === 0 ? undefined : kept
}

export const LogsHttpLive = HttpApiBuilder.group(SluiceApi, "logs", (handlers) =>
  Effect.gen(function* () {
    const scopes = yield* requestScopes
    const store = yield* RequestLogStore
    return handlers.handle("list", ({ urlParams: p, request }) =>
      Effect.gen(function* () {
        const unknown = unknownParams(request.url)
        if (unknown.length > 0) {
          return yield* new BadRequest({
            message: `Unknown logs filter ${unknown.map((n) => `'${n.slice(0, 64)}'`).join(", ")}.`,
            hint: `GET /v1/logs accepts ${LOGS_PARAM_NAMES.join(", ")}.`
          })
        }
        const search =
          p.search === undefined || p.search.trim() === "" ? undefined : parseSearch(p.search)
        if (search !== undefined && Either.isLeft(search)) {
          return yield* new BadRequest({
            message: search.left,
            hint: "search understands status:, origin:, type:, table: and hints: tokens beside free text."
          })
        }
        // `database` selects as on every data endpoint (it must exist and be readable);
        // the log stays the cluster's, and `log_databases` filters it.
        const { scope } = yield* scopes.dataScope("read", p)
        const page = yield* store.list({
          organizationId: scope.organizationId,
          clusterId: scope.clusterId,
          start: p.start_time === undefined ? undefined : DateTime.toDate(p.start_time),
          end: p.end_time === undefined ? undefined : DateTime.toDate(p.end_time),
          search: search?.right,
          methods: p.methods,
          statusCodes: p.status_codes,
          sources: p.sources,
          userAgent: p.user_agent,
          levels: p.levels,
          host: p.host === "" ? undefined : p.host,
          paths: nonEmpty(p.paths),
          minDurationMs: p.min_duration_ms,
          maxDurationMs: p.max_duration_ms,
          databases: nonEmpty(p.log_databases),
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
