/**
 * `ApiKeys` over the control plane: a token is generated here and only its digest and a
 * masked hint are stored; a revoke by token digests it the same way.
 */
import { DateTime, Effect, Layer, Redacted, Schema } from "effect"
import { ApiKeys } from "../../domain/ApiKeys.js"
import { ApiKey, CreatedApiKey } from "../../domain/api/KeysApi.js"
import type { ClusterScope } from "../../domain/Authorization.js"
import { NotFound } from "../../domain/Errors.js"
import { ApiKeyId } from "../../domain/Ids.js"
import type { ApiKeyRow } from "./ApiKeysRepo.js"
import { ApiKeysRepo, NewApiKey } from "./ApiKeysRepo.js"
import { ApiKeyTokens, looksLikeToken, tokenHint } from "./ApiKeyTokens.js"

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

export const ApiKeysLive = Layer.effect(
  ApiKeys,
  Effect.gen(function* () {
    const keys = yield* ApiKeysRepo
    const tokens = yield* ApiKeyTokens
    return ApiKeys.of({
      list: Effect.fn("ApiKeys.list")(function* (scope) {
        return (yield* keys.listActive(scope.clusterId)).map(toApiKey)
      }),

      create: Effect.fn("ApiKeys.create")(function* (scope, database, request) {
        const token = tokens.generate()
        const row = yield* keys.create(
          new NewApiKey({
            organization_id: scope.organizationId,
            cluster_id: scope.clusterId,
            name: request.name,
            permission: request.permission,
            default_database: database,
            token_hash: tokens.digest(Redacted.value(token)),
            token_hint: tokenHint(Redacted.value(token)),
            created_by_user_id: scope.caller._tag === "UserCaller" ? scope.caller.userId : null,
            created_by_key_id: scope.caller._tag === "ApiKeyCaller" ? scope.caller.keyId : null
          })
        )
        return new CreatedApiKey({
          ...toApiKey(row),
          token: Redacted.value(token),
          database: { name: database },
          ...where(scope)
        })
      }),

      revoke: Effect.fn("ApiKeys.revoke")(function* (scope, idOrToken) {
        const revoked = looksLikeToken(idOrToken)
          ? yield* keys.revoke(scope.clusterId, { hash: tokens.digest(idOrToken) })
          : isKeyId(idOrToken)
            ? yield* keys.revoke(scope.clusterId, { id: idOrToken })
            : false
        if (!revoked) {
          return yield* new NotFound({
            message: "No live API key with that id or token in this cluster.",
            hint: "GET /v1/keys lists the keys of the cluster."
          })
        }
      })
    })
  })
)
