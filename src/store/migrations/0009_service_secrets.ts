/**
 * The service's own secrets (the session signing key and the API-key pepper) in the
 * control plane: every node on one control plane shares them, and none is a file in the
 * data directory that an engine process running as the same user could be made to read.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE TABLE service_secrets (
    name text PRIMARY KEY,
    value text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now()
  )`
})
