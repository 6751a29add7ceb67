/**
 * Each organization's external id for customer-owned storage: the service generates it,
 * the customer names it in the role's trust policy, and every role assumption for the
 * organization passes it, so no other customer of the service can have the service
 * assume that role (the confused-deputy problem). Existing organizations get one each.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE organizations
    ADD COLUMN external_id text NOT NULL UNIQUE DEFAULT ('sluice-' || gen_random_uuid()::text)`
})
