/**
 * Entries written before migration 0004 (only the columns of 0002) still list with every
 * field a client reads: the new columns' defaults read as empty strings, no headers,
 * no tables and no hints.
 */
import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Effect, Either, Layer } from "effect"
import { toLogEntry } from "../../src/requestlog/LogRecord.js"
import { parseSearch } from "../../src/requestlog/LogSearch.js"
import { RequestLogStore } from "../../src/requestlog/RequestLogStore.js"
import * as ControlPlaneSql from "../../src/store/ControlPlaneSql.js"
import { ClusterId, OrganizationId } from "../../domain/Ids.js"

const ORG = OrganizationId.make("00000000-0000-4000-8000-00000000000a")
const CLUSTER = ClusterId.make("00000000-0000-4000-8000-00000000000b")

const live = RequestLogStore.Default.pipe(Layer.provideMerge(ControlPlaneSql.inMemory))

layer(live, { timeout: 120_000 })("request log rows from before 0004", (it) => {
  it.effect("list with every field, and the tokens treat them as plain requests", () =>
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const store = yield* RequestLogStore
      yield* sql`insert into request_logs (id, trace_id, created_at, organization_id,
        cluster_id, organization, cluster, method, path, route, status_code, level, source,
        duration_ms, user_agent, client_version, request_size_bytes, response_size_bytes,
        database, key_name, user_email, url_query, request_body, error_code, error_message,
        error_hint)
        values ('aaaaaaaaaaaaaaaa', ${"b".repeat(32)}, ${new Date("2026-01-02T03:04:05.678Z")},
        ${ORG}, ${CLUSTER}, 'acme', 'main', 'POST', '/v1/query', '/v1/query', 400, 'warning',
        'cli', 2.5, null, null, 17, 80, 'default', 'ci', null, null, null, 'bad_request',
        'Unknown table', '')`
      const page = yield* store.list({
        organizationId: ORG,
        clusterId: CLUSTER,
        limit: 10,
        offset: 0
      })
      expect(page.records.map(toLogEntry)).toEqual([
        expect.objectContaining({
          id: "aaaaaaaaaaaaaaaa",
          parent_span_id: "",
          created_at: "2026-01-02T03:04:05.678Z",
          host: "",
          user_agent: "",
          client_version: "",
          headers: {},
          content_encoding: "",
          duration_ms: 3,
          handler_ms: 0,
          app_overhead_ms: 3,
          user_id: "",
          user_email: "",
          organization_id: ORG,
          cluster_id: CLUSTER,
          request_body: "",
          url_query: "",
          error: "bad_request",
          message: "Unknown table"
        })
      ])
      const search = (text: string) =>
        Effect.map(
          store.list({
            organizationId: ORG,
            clusterId: CLUSTER,
            search: Either.getOrThrow(parseSearch(text)),
            limit: 10,
            offset: 0
          }),
          (result) => result.records.length
        )
      expect(yield* search("status:error origin:cli hints:none")).toBe(1)
      expect(yield* search("type:select")).toBe(0)
      expect(yield* search("table:events")).toBe(0)
    })
  )
})
