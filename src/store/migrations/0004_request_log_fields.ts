/**
 * The request-log fields existing clients read that 0002 did not keep,
 * and what the `search` tokens filter on: the kind of request (`type:`), the tables it
 * acted on (`table:`) and whether a query answered with hints (`hints:`). Rows written
 * before this migration get the defaults: empty strings, no tables, no hints.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE request_logs
    ADD COLUMN host text NOT NULL DEFAULT '',
    ADD COLUMN parent_span_id text NOT NULL DEFAULT '',
    ADD COLUMN handler_ms double precision NOT NULL DEFAULT 0,
    ADD COLUMN content_encoding text NOT NULL DEFAULT '',
    ADD COLUMN headers text NOT NULL DEFAULT '{}',
    ADD COLUMN user_id text NULL,
    ADD COLUMN request_type text NOT NULL DEFAULT '',
    ADD COLUMN tables text[] NOT NULL DEFAULT '{}',
    ADD COLUMN has_hints boolean NOT NULL DEFAULT false`
})
