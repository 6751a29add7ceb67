/** `/v1/keys`: list, create (token shown once) and revoke cluster API keys. */
import { HttpApiBuilder } from "@effect/platform"
import { DateTime, Effect, Redacted, Schema } from "effect"
import { NotFound } from "../../domain/Errors.js"
import { ApiKeyId } from "../../domain/Ids.js"
import { requestScopes } from "../http/RequestScope.js"
import { SluiceApi } from "../../domain/Api.js"
import { ApiKey, CreatedApiKey } from "../../domain/api/KeysApi.js"
import type { ApiKeyRow } from "./ApiKeysRepo.js"
import { ApiKeysRepo, NewApiKey } from "./ApiKeysRepo.js"
import { ApiKeyTokens, looksLikeToken, tokenHint } from "./ApiKeyTokens.js"
import type { ClusterScope } from "../../domain/Authorization.js"

const iso = (date: Date) => DateTime.formatIso(DateTime.unsafeFromDate(date))

const toApiKey = (row: ApiKeyRow) =>
  new ApiKey({
    id: row.id,
    name: row.name,
    permission: row.permission,
    token: row.token_hint,
    default_database: row.default_database,
    hint: row.token_hint,
    created_at: iso(row.created_at),
    last_used_at: row.last_used_at === null ? null : iso(row.last_used_at)
  })

const where = (scope: ClusterScope) => ({
  organization: { name: scope.organizationName },
  cluster: { id: scope.clusterId, name: scope.clusterName }
})

const isKeyId = Schema.is(ApiKeyId)

export const KeysHttpLive = HttpApiBuilder.group(SluiceApi, "keys", (handlers) =>
  Effect.gen(function* () {
    const scopes = yield* requestScopes
    const keys = yield* ApiKeysRepo
    const tokens = yield* ApiKeyTokens
    return handlers
      .handle("list", ({ urlParams }) =>
        Effect.gen(function* () {
          const { scope, database } = yield* scopes.dataScope("manage_keys", urlParams)
          const rows = yield* keys.listActive(scope.clusterId)
          return {
            keys: rows.map(toApiKey),
            database: { name: database },
            project: { name: database },
            ...where(scope)
          }
        })
      )
      .handle("create", ({ urlParams, payload }) =>
        Effect.gen(function* () {
          const { scope, database } = yield* scopes.dataScope("manage_keys", urlParams)
          const token = tokens.generate()
          const row = yield* keys.create(
            new NewApiKey({
              organization_id: scope.organizationId,
              cluster_id: scope.clusterId,
              name: payload.name,
              permission: payload.permission,
              default_database: database,
              token_hash: tokens.digest(Redacted.value(token)),
              token_hint: tokenHint(Redacted.value(token)),
              created_by_user_id: scope.caller._tag === "UserCaller" ? scope.caller.userId : null,
              created_by_key_id: scope.caller._tag === "ApiKeyCaller" ? scope.caller.keyId : null
            })
          )
          const key = new CreatedApiKey({
            ...toApiKey(row),
            token: Redacted.value(token),
            database: { name: database },
            ...where(scope)
          })
          return { ...key, key }
        })
      )
      .handle("revoke", ({ path, urlParams }) =>
        Effect.gen(function* () {
          const scope = yield* scopes.clusterScope("manage_keys", urlParams)
          const value = path.id_or_token
          const revoked = looksLikeToken(value)
            ? yield* keys.revoke(scope.clusterId, { hash: tokens.digest(value) })
            : isKeyId(value)
              ? yield* keys.revoke(scope.clusterId, { id: value })
              : false
          if (!revoked) {
            return yield* new NotFound({
              message: "No live API key with that id or token in this cluster.",
              hint: "GET /v1/keys lists the keys of the cluster."
            })
          }
          return { deleted: true } as const
        })
      )
  })
)
