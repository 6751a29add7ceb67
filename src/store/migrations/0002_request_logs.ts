/**
 * The request log lives in the control plane, not in a cluster's
 * engine, so that it stays readable while a cluster is paused.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient

  // `seq` orders entries that share a `created_at` and keeps offset pages stable. No
  // foreign keys: an entry outlives its key or cluster until retention removes it, and
  // inserts stay cheap. Unauthenticated requests have a null scope and are never listed.
  yield* sql`CREATE TABLE request_logs (
    seq bigserial PRIMARY KEY,
    id text NOT NULL,
    trace_id text NOT NULL,
    created_at timestamptz NOT NULL,
    organization_id uuid NULL,
    cluster_id uuid NULL,
    organization text NULL,
    cluster text NULL,
    method text NOT NULL,
    path text NOT NULL,
    route text NULL,
    status_code integer NOT NULL,
    level text NOT NULL,
    source text NOT NULL,
    duration_ms double precision NOT NULL,
    user_agent text NULL,
    client_version text NULL,
    request_size_bytes bigint NOT NULL,
    response_size_bytes bigint NOT NULL,
    database text NULL,
    key_name text NULL,
    user_email text NULL,
    url_query text NULL,
    request_body text NULL,
    error_code text NULL,
    error_message text NULL,
    error_hint text NULL
  )`
  yield* sql`CREATE INDEX request_logs_cluster_created
    ON request_logs (cluster_id, created_at DESC, seq DESC)`
  yield* sql`CREATE INDEX request_logs_created ON request_logs (created_at)`
})
