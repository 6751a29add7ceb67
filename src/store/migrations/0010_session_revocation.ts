/**
 * Sessions that end before they expire: a user's session generation moves on when every
 * session of theirs ends (a password change), and a signed-out session's id is kept until
 * the session would have expired anyway.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE users ADD COLUMN session_generation integer NOT NULL DEFAULT 0`
  yield* sql`CREATE TABLE revoked_sessions (
    id text PRIMARY KEY,
    user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    expires_at timestamptz NOT NULL
  )`
  yield* sql`CREATE INDEX revoked_sessions_expires_at ON revoked_sessions (expires_at)`
})
