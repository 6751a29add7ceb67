/**
 * A cluster's last data request as every node saw it (epoch milliseconds on the service's
 * clock), so that the node that idles clusters counts the requests the others served.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE clusters ADD COLUMN last_active_ms double precision NULL`
})
