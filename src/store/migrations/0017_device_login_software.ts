/**
 * The software that started a command-line login, as it named itself (`x-service-client`
 * and its version, else its user agent's product), so the user asked to approve sees which
 * program asks. Null for a client that named none, and for logins started before this.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE device_logins ADD COLUMN client_name text NULL`
  yield* sql`ALTER TABLE device_logins ADD COLUMN client_version text NULL`
})
