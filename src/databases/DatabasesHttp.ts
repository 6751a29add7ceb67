/** `/v1/databases`: list, create and delete a cluster's databases (`Databases`). */
import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { requestScopes } from "../http/RequestScope.js"
import { SluiceApi } from "../../domain/Api.js"
import { Databases } from "../../domain/Databases.js"

export const DatabasesHttpLive = HttpApiBuilder.group(SluiceApi, "databases", (handlers) =>
  Effect.gen(function* () {
    const scopes = yield* requestScopes
    const databases = yield* Databases
    return handlers
      .handle("list", ({ urlParams }) =>
        Effect.gen(function* () {
          const scope = yield* scopes.clusterScope("read", urlParams)
          return {
            databases: yield* databases.list(scope),
            organization: { name: scope.organizationName },
            cluster: { id: scope.clusterId, name: scope.clusterName }
          }
        })
      )
      .handle("create", ({ urlParams, payload }) =>
        Effect.gen(function* () {
          const scope = yield* scopes.clusterScope("manage_databases", urlParams)
          const database = yield* databases.create(scope, payload.name, payload.s3_storage)
          return { name: payload.name, database, organization: { name: scope.organizationName } }
        })
      )
      .handle("delete", ({ path, urlParams }) =>
        Effect.gen(function* () {
          const scope = yield* scopes.clusterScope("manage_databases", urlParams)
          yield* databases.remove(scope, path.database)
          return { deleted: true } as const
        })
      )
  })
)
