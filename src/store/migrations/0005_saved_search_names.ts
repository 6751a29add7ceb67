/**
 * Saved-search names are unique per creator within a cluster: the
 * index enforces it even when two requests race, and serves the creator's own listing.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE UNIQUE INDEX saved_searches_cluster_creator_name
    ON saved_searches (cluster_id, created_by, name)`
})
