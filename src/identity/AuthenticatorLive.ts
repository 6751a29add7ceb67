/**
 * Bearer credentials → callers. `rt_…` is a cluster API key; any other token is a JWT,
 * routed by its (unverified) issuer to the session verifier or the OIDC verifier and
 * then fully verified there. Every failure is the same 401, so a caller learns nothing
 * about which part was wrong.
 */
import { Clock, Effect, Layer, Option, Redacted } from "effect"
import { decodeJwt } from "jose"
import { Unauthorized } from "../../domain/Errors.js"
import { ApiKeyCaller, Authenticator, SessionRef, UserCaller } from "../../domain/Identity.js"
import { DatabaseName } from "../../domain/Ids.js"
import type { ApiKeyId } from "../../domain/Ids.js"
import { ApiKeysRepo } from "./ApiKeysRepo.js"
import type { ActiveApiKey } from "./ApiKeysRepo.js"
import { ApiKeyTokens, TOKEN_PREFIX } from "./ApiKeyTokens.js"
import { OidcVerifier } from "./OidcVerifier.js"
import { SessionsRepo } from "./SessionsRepo.js"
import { SESSION_ISSUER, SessionTokens } from "./SessionTokens.js"
import { UsersRepo } from "./UsersRepo.js"

const rejected = new Unauthorized({
  message: "The credential is missing, invalid, expired or revoked.",
  hint: "Send `Authorization: Bearer <token>` with an API key (rt_…), a session token from POST /v1/auth/login, or an OAuth access token."
})

const issuerOf = (token: string) => {
  try {
    return Option.fromNullable(decodeJwt(token).iss)
  } catch {
    return Option.none()
  }
}

export const AuthenticatorLive = Layer.effect(
  Authenticator,
  Effect.gen(function* () {
    const keys = yield* ApiKeysRepo
    const tokens = yield* ApiKeyTokens
    const users = yield* UsersRepo
    const sessions = yield* SessionTokens
    const sessionUsers = yield* SessionsRepo
    const oidc = yield* OidcVerifier

    // `last_used_at` is minute-grained: skip the write (a round trip on the control
    // plane's one connection) when this process recorded the key's use recently.
    const lastRecorded = new Map<ApiKeyId, number>()
    const recordUse = (id: ApiKeyId) =>
      Effect.flatMap(Clock.currentTimeMillis, (now) => {
        if (now - (lastRecorded.get(id) ?? 0) < 60_000) return Effect.void
        lastRecorded.set(id, now)
        return Effect.asVoid(Effect.forkDaemon(keys.touch(id)))
      })

    // One caller per key row: `ApiKeysRepo` hands out the same row while it caches it, so
    // a busy key's caller is built once, not per request.
    const callers = new WeakMap<ActiveApiKey, ApiKeyCaller>()
    const callerOf = (k: ActiveApiKey) => {
      const known = callers.get(k)
      if (known !== undefined) return known
      const caller = new ApiKeyCaller({
        keyId: k.id,
        keyName: k.name,
        permission: k.permission,
        organizationId: k.organization_id,
        organizationName: k.organization_name,
        clusterId: k.cluster_id,
        clusterName: k.cluster_name,
        defaultDatabase: DatabaseName.make(k.default_database)
      })
      callers.set(k, caller)
      return caller
    }

    // Untraced: on every request, and (its row cached) without I/O.
    const byApiKey = (token: string) =>
      Effect.suspend(() => {
        const digest = tokens.digest(token)
        return Effect.flatMap(keys.findActiveByHash(digest), (key) => {
          if (Option.isNone(key) || !tokens.matches(digest, key.value.token_hash)) {
            return Effect.fail(rejected)
          }
          return Effect.as(recordUse(key.value.id), callerOf(key.value))
        })
      })

    const byUserToken = Effect.fn("Authenticator.userToken")(
      function* (token: string) {
        const issuer = Option.getOrUndefined(issuerOf(token))
        if (issuer === SESSION_ISSUER) {
          const claims = yield* sessions.verify(token)
          const user = yield* sessionUsers.userOf(claims.sub, claims.jti)
          if (
            Option.isNone(user) ||
            user.value.revoked ||
            user.value.session_generation !== claims.gen
          ) {
            return yield* rejected
          }
          return new UserCaller({
            userId: user.value.id,
            email: user.value.email,
            via: "session",
            session: new SessionRef({ id: claims.jti, expiresAt: claims.exp * 1000 })
          })
        }
        if (oidc.accepts(issuer)) {
          const claims = yield* oidc.verify(token)
          const user = yield* users.findByEmail(claims.email)
          if (Option.isNone(user)) return yield* rejected
          return new UserCaller({ userId: user.value.id, email: user.value.email, via: "oauth" })
        }
        return yield* rejected
      },
      Effect.catchTags({
        InvalidSessionToken: () => Effect.fail(rejected),
        InvalidOidcToken: (e) =>
          Effect.logDebug("OIDC token refused", e.reason).pipe(
            Effect.zipRight(Effect.fail(rejected))
          )
      })
    )

    return Authenticator.of({
      authenticate: (credential) => {
        const token = Redacted.value(credential).trim()
        if (token === "") return Effect.fail(rejected)
        return token.startsWith(TOKEN_PREFIX) ? byApiKey(token) : byUserToken(token)
      }
    })
  })
)
