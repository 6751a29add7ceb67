/**
 * A database's customer-owned storage (`s3_storage` on create: buckets, paths and role),
 * kept to be shown with the database as the cluster's `byo_s3` is with the cluster.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE databases ADD COLUMN s3_storage jsonb NULL`
})
