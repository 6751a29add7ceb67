/** The request log in the control plane: batch writes, scoped pages, retention deletes. */
import { SqlClient } from "@effect/sql"
import { Effect, Schema } from "effect"
import type { LogSource } from "../../domain/api/LogsApi.js"
import type { ClusterId, OrganizationId } from "../../domain/Ids.js"
import { LogRecord } from "./LogRecord.js"

/** A page request: bounds are inclusive; every array filter is an OR of its values. */
export interface LogFilter {
  readonly organizationId: OrganizationId
  readonly clusterId: ClusterId
  readonly start?: Date | undefined
  readonly end?: Date | undefined
  readonly search?: string | undefined
  readonly methods?: ReadonlyArray<string> | undefined
  readonly statusCodes?: ReadonlyArray<number> | undefined
  readonly sources?: ReadonlyArray<LogSource> | undefined
  readonly userAgent?: string | undefined
  readonly limit: number
  readonly offset: number
}

// bigint and numeric columns arrive as strings from the driver; cast to keep them numbers.
const columns = `id, trace_id, created_at, organization_id, cluster_id, organization, cluster,
  method, path, route, status_code, level, source, duration_ms, user_agent, client_version,
  request_size_bytes::float8 as request_size_bytes, response_size_bytes::float8 as response_size_bytes,
  database, key_name, user_email, url_query, request_body, error_code, error_message, error_hint`

// PostgreSQL text cannot hold NUL, which a request's query or body may carry: one such
// request would lose its whole batch.
const withoutNul = <Row extends object>(row: Row): Row => {
  const clean = { ...row }
  for (const [name, value] of Object.entries(clean)) {
    if (typeof value === "string" && value.includes("\u0000")) {
      Object.assign(clean, { [name]: value.replaceAll("\u0000", "\ufffd") })
    }
  }
  return clean
}

const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`

export class RequestLogStore extends Effect.Service<RequestLogStore>()("sluice/RequestLogStore", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const encode = Schema.encode(Schema.Array(LogRecord))

    const decodeRows = Schema.decodeUnknown(Schema.Array(LogRecord))

    return {
      write: Effect.fn("RequestLogStore.write")(function* (records: ReadonlyArray<LogRecord>) {
        if (records.length === 0) return
        const rows = (yield* encode(records)).map(withoutNul)
        yield* sql`insert into request_logs ${sql.insert(rows)}`
      }, Effect.orDie),

      /** Newest first; one row more than `limit` tells whether another page exists. */
      list: Effect.fn("RequestLogStore.list")(function* (filter: LogFilter) {
        const search = filter.search === undefined ? undefined : likePattern(filter.search)
        const conditions = [
          sql`organization_id = ${filter.organizationId}`,
          sql`cluster_id = ${filter.clusterId}`,
          ...(filter.start === undefined ? [] : [sql`created_at >= ${filter.start}`]),
          ...(filter.end === undefined ? [] : [sql`created_at <= ${filter.end}`]),
          ...(filter.methods === undefined ? [] : [sql`method in ${sql.in(filter.methods)}`]),
          ...(filter.statusCodes === undefined
            ? []
            : [sql`status_code in ${sql.in(filter.statusCodes)}`]),
          ...(filter.sources === undefined ? [] : [sql`source in ${sql.in(filter.sources)}`]),
          ...(filter.userAgent === undefined ? [] : [sql`user_agent = ${filter.userAgent}`]),
          ...(search === undefined
            ? []
            : [
                sql`(id ilike ${search} or method ilike ${search} or path ilike ${search}
                  or status_code::text ilike ${search} or source ilike ${search}
                  or user_agent ilike ${search} or error_code ilike ${search}
                  or error_message ilike ${search} or error_hint ilike ${search})`
              ])
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
