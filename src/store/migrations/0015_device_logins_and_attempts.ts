/**
 * What the sign-in throttles and the command line's device logins keep, so that every
 * node of one control plane counts and sees the same: attempt windows per key (an
 * account, a client address), and the logins waiting for approval. Times are epoch
 * milliseconds on the service's clock; secrets and throttled keys are kept as SHA-256 digests.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE TABLE attempt_windows (
    key text PRIMARY KEY,
    count integer NOT NULL,
    ends_at double precision NOT NULL
  )`
  yield* sql`CREATE INDEX attempt_windows_ends_at ON attempt_windows (ends_at)`
  yield* sql`CREATE TABLE device_logins (
    device_code_hash text PRIMARY KEY,
    user_code text NOT NULL UNIQUE,
    client text NOT NULL,
    expires_at double precision NOT NULL,
    state text NOT NULL,
    user_id uuid NULL,
    user_email text NULL,
    user_session_generation integer NULL,
    page_session_hash text NULL
  )`
  yield* sql`CREATE INDEX device_logins_expires_at ON device_logins (expires_at)`
})
