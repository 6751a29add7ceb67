/** A second organization and cluster with an admin key, arranged behind the API. */
import { Context, Effect, Redacted } from "effect"
import { ClustersRepo, NewCluster } from "../../src/clusters/ClustersRepo.js"
import { DatabasesRepo } from "../../src/databases/DatabasesRepo.js"
import { ApiKeysRepo, NewApiKey } from "../../src/identity/ApiKeysRepo.js"
import { ApiKeyTokens, tokenHint } from "../../src/identity/ApiKeyTokens.js"
import { OrganizationsRepo } from "../../src/identity/OrganizationsRepo.js"
import type { ClusterPhase } from "../../domain/api/ClusterModels.js"
import type { OrganizationId } from "../../domain/Ids.js"
import type { RunningServer } from "./server.js"

/** A 1 CPU / 4 GiB cluster row in `phase`, written straight to the control plane. */
export const arrangeCluster = (
  server: RunningServer,
  organization: OrganizationId,
  name: string,
  phase: ClusterPhase = "ready"
) =>
  Context.get(server.context, ClustersRepo).create(
    new NewCluster({
      organization_id: organization,
      name,
      phase,
      replicas: 1,
      cpu_cores: 1,
      memory_gib: 4,
      min_cpu_cores: 1,
      min_memory_gib: 4,
      max_cpu_cores: 16,
      max_memory_gib: 64,
      idle_timeout_minutes: 0
    })
  )

export const otherCluster = (server: RunningServer, name: string) =>
  Effect.gen(function* () {
    const ctx = server.context
    const tokens = Context.get(ctx, ApiKeyTokens)
    const org = yield* Context.get(ctx, OrganizationsRepo).create(name)
    const cluster = yield* arrangeCluster(server, org.id, name)
    yield* Context.get(ctx, DatabasesRepo).create(cluster.id, "default")
    const token = tokens.generate()
    yield* Context.get(ctx, ApiKeysRepo).create(
      new NewApiKey({
        organization_id: org.id,
        cluster_id: cluster.id,
        name: `${name} admin`,
        permission: "admin",
        default_database: "default",
        token_hash: tokens.digest(Redacted.value(token)),
        token_hint: tokenHint(Redacted.value(token)),
        created_by_user_id: null,
        created_by_key_id: null
      })
    )
    return { organization: org, cluster, token: Redacted.value(token) }
  })
