/**
 * Two sluice processes starting at once against one empty external PostgreSQL (a rolling
 * deploy, two replicas): migrations and bootstrap happen once, and exactly one of them
 * prints the first-start credentials. Runs in the `external` project only: an embedded
 * control plane belongs to one data directory and one process.
 */
import { SqlClient } from "@effect/sql"
import { describe, expect, it } from "@effect/vitest"
import { Context, Effect, Option } from "effect"
import { databaseFor } from "../support/controlPlane.js"
import { adminKeyOf, call, freshDataDir, startServer } from "../support/server.js"

describe("first start on a shared external control plane", () => {
  it.live(
    "bootstraps once when two servers start together",
    () =>
      Effect.scoped(
        Effect.gen(function* () {
          const url = yield* databaseFor(freshDataDir("sluice-shared-plane"))
          // Instances sharing a control plane share its secrets (README: configuration).
          const env = {
            SLUICE_DATABASE_URL: url,
            SLUICE_JWT_SECRET: "shared-jwt-secret-of-both-replicas",
            SLUICE_KEY_PEPPER: "shared-key-pepper-of-both-replicas"
          }
          const [first, second] = yield* Effect.all(
            [
              startServer(freshDataDir("sluice-a"), env),
              startServer(freshDataDir("sluice-b"), env)
            ],
            { concurrency: "unbounded" }
          )
          const bootstrapped = [first, second].filter((s) => Option.isSome(s.firstStart))
          expect(bootstrapped).toHaveLength(1)

          const sql = Context.get(first.context, SqlClient.SqlClient)
          const [counts] = yield* sql<{ orgs: number; users: number; keys: number }>`
            select (select count(*)::int from organizations) as orgs,
                   (select count(*)::int from users) as users,
                   (select count(*)::int from api_keys) as keys`
          expect(counts).toEqual({ orgs: 1, users: 1, keys: 1 })

          // The key one of them printed works on both: they share the control plane.
          const key = adminKeyOf(bootstrapped[0]!)
          for (const server of [first, second]) {
            expect((yield* call(server, "GET", "/v1/keys", { token: key })).status).toBe(200)
          }
        })
      ),
    120_000
  )
})
