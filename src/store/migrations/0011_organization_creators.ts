/**
 * Who created each organization, for the per-user limit on organizations
 * (`SLUICE_MAX_ORGANIZATIONS_PER_USER`): counted by creator, not by admin role, so that
 * handing an organization to another admin does not free a place. Organizations made
 * before this (and the first start's) have none and count for nobody.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE organizations
    ADD COLUMN created_by_user_id uuid NULL REFERENCES users (id) ON DELETE SET NULL`
  yield* sql`CREATE INDEX organizations_created_by_user_id ON organizations (created_by_user_id)`
})
