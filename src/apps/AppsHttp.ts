/**
 * `/v1/apps`: list, install and uninstall a cluster's apps. User
 * credentials only (a cluster API key is 403); members read, admins change. A cluster
 * the caller's organization does not have is a 404, so no other organization's cluster
 * is ever confirmed. Only the control plane is touched: the cluster's lifecycle and its
 * data stay as they are.
 */
import { HttpApiBuilder } from "@effect/platform"
import { Effect, Option } from "effect"
import { requestScopes } from "../http/RequestScope.js"
import { SluiceApi } from "../../domain/Api.js"
import { AppRegistry } from "../../domain/AppRegistry.js"
import { NotFound } from "../../domain/Errors.js"
import type { OrganizationRole } from "../../domain/Identity.js"
import { ClusterLifecycle } from "../../domain/ClusterLifecycle.js"
import { appCatalog, catalogEntry } from "./AppCatalog.js"

interface AppParams {
  readonly organization: string
  readonly cluster: string
}

const catalogIds = appCatalog.map((entry) => entry.id).join(", ")

export const AppsHttpLive = HttpApiBuilder.group(SluiceApi, "apps", (handlers) =>
  Effect.gen(function* () {
    const scopes = yield* requestScopes
    const lifecycle = yield* ClusterLifecycle
    const apps = yield* AppRegistry

    /** The named cluster of the named organization, if the caller's role allows `what`. */
    const clusterOf = (params: AppParams, need: OrganizationRole, what: string) =>
      Effect.gen(function* () {
        const scope = yield* scopes.organizationScope(params.organization, need, what)
        const found = yield* lifecycle.find(scope.organizationId, { name: params.cluster })
        if (Option.isSome(found)) return found.value
        const names = (yield* lifecycle.clustersOf(scope.organizationId))
          .map((c) => c.name)
          .join(", ")
        return yield* new NotFound({
          message: `Cluster '${params.cluster}' not found in '${scope.organizationName}'.`,
          hint: `Clusters of '${scope.organizationName}': ${names || "none"}.`
        })
      })

    const appOf = (id: string) => {
      const entry = catalogEntry(id)
      return entry
        ? Effect.succeed(entry.id)
        : Effect.fail(
            new NotFound({
              message: `There is no app '${id}'.`,
              hint: `Apps: ${catalogIds}. GET /v1/apps lists them with their state.`
            })
          )
    }

    return handlers
      .handle("list", ({ urlParams }) =>
        Effect.gen(function* () {
          const cluster = yield* clusterOf(urlParams, "member", "read apps")
          return {
            cluster: { id: cluster.id, name: cluster.name },
            apps: yield* apps.list(cluster.id)
          }
        })
      )
      .handle("install", ({ path, urlParams }) =>
        Effect.gen(function* () {
          const cluster = yield* clusterOf(urlParams, "admin", "install apps")
          const id = yield* appOf(path.app_id)
          return yield* apps.install(cluster.id, id)
        })
      )
      .handle("uninstall", ({ path, urlParams }) =>
        Effect.gen(function* () {
          const cluster = yield* clusterOf(urlParams, "admin", "uninstall apps")
          const id = yield* appOf(path.app_id)
          return yield* apps.uninstall(cluster.id, id)
        })
      )
  })
)
