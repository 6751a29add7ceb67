/**
 * First start on an empty control plane: organization `default`, an
 * admin user, cluster `default` with database `default`, and an admin API key, all in
 * one transaction. A later start finds a user and does nothing, so no second
 * set is created and no secret is printed again.
 */
import { randomBytes } from "node:crypto"
import { SqlClient } from "@effect/sql"
import { Effect, Option, Redacted } from "effect"
import type { BootstrapCredentials } from "../../domain/FirstStart.js"
import { DatabaseName } from "../../domain/Ids.js"
import { ClusterLifecycle } from "../../domain/ClusterLifecycle.js"
import { ClustersRepo, NewCluster } from "../clusters/ClustersRepo.js"
import { firstStartSize } from "../clusters/SizeCatalog.js"
import { SluiceConfig } from "../config/SluiceConfig.js"
import { DatabasesRepo } from "../databases/DatabasesRepo.js"
import { ApiKeysRepo, NewApiKey } from "../identity/ApiKeysRepo.js"
import { ApiKeyTokens, tokenHint } from "../identity/ApiKeyTokens.js"
import { OrganizationsRepo } from "../identity/OrganizationsRepo.js"
import { Passwords } from "../identity/Passwords.js"
import { UsersRepo } from "../identity/UsersRepo.js"

export const DEFAULT_NAME = "default"

export class Bootstrap extends Effect.Service<Bootstrap>()("sluice/Bootstrap", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const config = yield* SluiceConfig
    const organizations = yield* OrganizationsRepo
    const users = yield* UsersRepo
    const clusters = yield* ClustersRepo
    const databases = yield* DatabasesRepo
    const keys = yield* ApiKeysRepo
    const tokens = yield* ApiKeyTokens
    const passwords = yield* Passwords
    const { sizes } = yield* ClusterLifecycle
    const size = firstStartSize(sizes)

    const firstStart = Effect.gen(function* () {
      const generated = Option.isNone(config.adminPassword)
      const password = Option.getOrElse(config.adminPassword, () =>
        Redacted.make(randomBytes(15).toString("base64url"))
      )
      const org = yield* organizations.create(DEFAULT_NAME)
      const user = yield* users.create(config.adminEmail, yield* passwords.hash(password))
      yield* organizations.setRole(org.id, user.id, "admin")
      const cluster = yield* clusters.createOrDie(
        new NewCluster({
          organization_id: org.id,
          name: DEFAULT_NAME,
          phase: "ready",
          replicas: 1,
          cpu_cores: size.cpu_cores,
          memory_gib: size.memory_gib,
          min_cpu_cores: sizes.default_min_size.cpu_cores,
          min_memory_gib: sizes.default_min_size.memory_gib,
          max_cpu_cores: sizes.default_max_size.cpu_cores,
          max_memory_gib: sizes.default_max_size.memory_gib,
          idle_timeout_minutes: 0
        })
      )
      yield* databases.create(cluster.id, DEFAULT_NAME)
      const token = tokens.generate()
      yield* keys.create(
        new NewApiKey({
          organization_id: org.id,
          cluster_id: cluster.id,
          name: "bootstrap admin",
          permission: "admin",
          default_database: DatabaseName.make(DEFAULT_NAME),
          token_hash: tokens.digest(Redacted.value(token)),
          token_hint: tokenHint(Redacted.value(token)),
          created_by_user_id: user.id,
          created_by_key_id: null
        })
      )
      return {
        email: user.email,
        generatedPassword: generated ? Option.some(password) : Option.none(),
        apiKey: token
      } satisfies BootstrapCredentials
    })

    return {
      /** Bootstraps an empty control plane; `None` when it was already bootstrapped. */
      run: Effect.fn("Bootstrap.run")(function* () {
        return yield* sql
          .withTransaction(
            Effect.gen(function* () {
              // Serialises concurrent first starts against one external PostgreSQL.
              yield* sql`lock table organizations in exclusive mode`
              // Users, not organizations: users are never deleted, organizations may all be.
              const existing = yield* sql<{ n: number }>`select 1 as n from users limit 1`
              if (existing.length > 0) return Option.none<BootstrapCredentials>()
              return Option.some(yield* firstStart)
            })
          )
          .pipe(Effect.orDie)
      })
    }
  })
}) {}
