/** The request log in the control plane: batch writes, scoped pages, retention deletes. */
import { SqlClient } from "@effect/sql"
import type { Statement } from "@effect/sql"
import { Effect, Schema } from "effect"
import type { LogLevel, LogSource } from "../../domain/api/LogsApi.js"
import type { ClusterId, OrganizationId } from "../../domain/Ids.js"
import { LogRecord } from "./LogRecord.js"
import type { ParsedSearch } from "./LogSearch.js"

/** A page request: bounds are inclusive; every array filter is an OR of its values. */
export interface LogFilter {
  readonly organizationId: OrganizationId
  readonly clusterId: ClusterId
  readonly start?: Date | undefined
  readonly end?: Date | undefined
  readonly search?: ParsedSearch | undefined
  readonly methods?: ReadonlyArray<string> | undefined
  readonly statusCodes?: ReadonlyArray<number> | undefined
  readonly sources?: ReadonlyArray<LogSource> | undefined
  readonly userAgent?: string | undefined
  readonly levels?: ReadonlyArray<LogLevel> | undefined
  /** A substring of the host, any case. */
  readonly host?: string | undefined
  readonly paths?: ReadonlyArray<string> | undefined
  /** Bounds on the whole milliseconds an entry shows. */
  readonly minDurationMs?: number | undefined
  readonly maxDurationMs?: number | undefined
  readonly databases?: ReadonlyArray<string> | undefined
  readonly limit: number
  readonly offset: number
}

// bigint and numeric columns arrive as strings from the driver; cast to keep them numbers.
const columns = `id, trace_id, parent_span_id, created_at, organization_id, cluster_id,
  organization, cluster, method, host, path, route, status_code, level, source, duration_ms,
  handler_ms, user_agent, client_version, headers, content_encoding,
  request_size_bytes::float8 as request_size_bytes, response_size_bytes::float8 as response_size_bytes,
  database, key_name, user_id, user_email, url_query, request_body, error_code, error_message,
  error_hint, request_type, tables, has_hints`

// PostgreSQL text cannot hold NUL, which a request's query or body may carry: one such
// request would lose its whole batch.
const withoutNul = <Row extends object>(row: Row): Row => {
  const clean = { ...row }
  const replaced = (text: string) => text.replaceAll("\u0000", "\ufffd")
  for (const [name, value] of Object.entries(clean)) {
    if (typeof value === "string" && value.includes("\u0000")) {
      Object.assign(clean, { [name]: replaced(value) })
    } else if (Array.isArray(value) && value.some((item) => String(item).includes("\u0000"))) {
      Object.assign(clean, { [name]: value.map((item) => replaced(String(item))) })
    }
  }
  return clean
}

const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`

// `status:success,error` (or `hints:any,none`) asks for everything: no condition.
const statusCondition = (statuses: ReadonlyArray<"success" | "error"> | undefined) =>
  statuses?.length === 1 ? statuses[0] : undefined

const hintsCondition = (hints: ReadonlyArray<"any" | "none"> | undefined) =>
  hints?.length === 1 ? hints[0] === "any" : undefined

export class RequestLogStore extends Effect.Service<RequestLogStore>()("sluice/RequestLogStore", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const decodeRows = Schema.decodeUnknown(Schema.Array(LogRecord))
    const insertedColumns = sql.literal(Object.keys(LogRecord.fields).join(", "))

    return {
      write: Effect.fn("RequestLogStore.write")(function* (records: ReadonlyArray<LogRecord>) {
        if (records.length === 0) return
        // A record's encoded form is itself (LogRecord.ts). The batch goes as one JSON
        // parameter that the server spreads into columns: with a parameter per field (35 a
        // row, up to 17,500 a batch) PGlite took ~110 µs a row on the server's own thread,
        // this way ~80.
        const rows = JSON.stringify(records.map(withoutNul))
        yield* sql`insert into request_logs (${insertedColumns})
          select ${insertedColumns} from json_populate_recordset(null::request_logs, ${rows}::json)`
      }, Effect.orDie),

      /** Newest first; one row more than `limit` tells whether another page exists. */
      list: Effect.fn("RequestLogStore.list")(function* (filter: LogFilter) {
        const search = filter.search ?? {}
        const text = search.text === undefined ? undefined : likePattern(search.text)
        // Entries show durations rounded half up (Math.round); filter on the same value.
        const shownDuration = sql.literal("floor(duration_ms + 0.5)")
        const when = <A>(value: A | undefined, condition: (value: A) => Statement.Fragment) =>
          value === undefined ? [] : [condition(value)]
        const conditions = [
          sql`organization_id = ${filter.organizationId}`,
          sql`cluster_id = ${filter.clusterId}`,
          ...when(filter.start, (start) => sql`created_at >= ${start}`),
          ...when(filter.end, (end) => sql`created_at <= ${end}`),
          ...when(filter.methods, (methods) => sql`method in ${sql.in(methods)}`),
          ...when(filter.statusCodes, (codes) => sql`status_code in ${sql.in(codes)}`),
          ...when(filter.sources, (sources) => sql`source in ${sql.in(sources)}`),
          ...when(filter.userAgent, (agent) => sql`user_agent = ${agent}`),
          ...when(filter.levels, (levels) => sql`level in ${sql.in(levels)}`),
          ...when(filter.host, (host) => sql`host ilike ${likePattern(host)}`),
          ...when(filter.paths, (paths) => sql`path in ${sql.in(paths)}`),
          ...when(filter.minDurationMs, (min) => sql`${shownDuration} >= ${min}`),
          ...when(filter.maxDurationMs, (max) => sql`${shownDuration} <= ${max}`),
          ...when(filter.databases, (databases) => sql`database in ${sql.in(databases)}`),
          ...when(statusCondition(search.statuses), (limit) =>
            limit === "success" ? sql`status_code < 400` : sql`status_code >= 400`
          ),
          ...when(search.origins, (origins) => sql`source in ${sql.in(origins)}`),
          ...when(search.types, (types) => sql`request_type in ${sql.in(types)}`),
          ...when(search.tables, (tables) => sql`tables && ${[...tables]}::text[]`),
          ...when(hintsCondition(search.hints), (any) => sql`has_hints = ${any}`),
          ...when(
            text,
            (
              pattern
            ) => sql`(id ilike ${pattern} or method ilike ${pattern} or path ilike ${pattern}
                  or status_code::text ilike ${pattern} or source ilike ${pattern}
                  or user_agent ilike ${pattern} or error_code ilike ${pattern}
                  or error_message ilike ${pattern} or error_hint ilike ${pattern})`
          )
        ]
        const rows = yield* sql`select ${sql.literal(columns)} from request_logs
          where ${sql.and(conditions)}
          order by created_at desc, seq desc
          limit ${filter.limit + 1} offset ${filter.offset}`
        const records = yield* decodeRows(rows)
        return {
          records: records.slice(0, filter.limit),
          hasMore: records.length > filter.limit
        }
      }, Effect.orDie),

      /** Deletes entries older than `days` before `now`; returns how many. */
      prune: Effect.fn("RequestLogStore.prune")(function* (now: Date, days: number) {
        const cutoff = new Date(now.getTime() - days * 86_400_000)
        const rows = yield* sql<{ readonly n: number }>`with gone as (
            delete from request_logs where created_at < ${cutoff} returning 1
          ) select count(*)::int as n from gone`
        return rows[0]?.n ?? 0
      }, Effect.orDie)
    }
  })
}) {}
