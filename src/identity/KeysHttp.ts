/** `/v1/keys`: list, create (token shown once) and revoke cluster API keys (`ApiKeys`). */
import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { requestScopes } from "../http/RequestScope.js"
import { SluiceApi } from "../../domain/Api.js"
import { ApiKeys } from "../../domain/ApiKeys.js"

export const KeysHttpLive = HttpApiBuilder.group(SluiceApi, "keys", (handlers) =>
  Effect.gen(function* () {
    const scopes = yield* requestScopes
    const keys = yield* ApiKeys
    return handlers
      .handle("list", ({ urlParams }) =>
        Effect.gen(function* () {
          const { scope, database } = yield* scopes.dataScope("manage_keys", urlParams)
          return {
            keys: yield* keys.list(scope),
            database: { name: database },
            project: { name: database },
            organization: { name: scope.organizationName },
            cluster: { id: scope.clusterId, name: scope.clusterName }
          }
        })
      )
      .handle("create", ({ urlParams, payload }) =>
        Effect.gen(function* () {
          const { scope, database } = yield* scopes.dataScope("manage_keys", urlParams)
          const key = yield* keys.create(scope, database, payload)
          return { ...key, key }
        })
      )
      .handle("revoke", ({ path, urlParams }) =>
        Effect.gen(function* () {
          const scope = yield* scopes.clusterScope("manage_keys", urlParams)
          yield* keys.revoke(scope, path.id_or_token)
          return { deleted: true } as const
        })
      )
  })
)
