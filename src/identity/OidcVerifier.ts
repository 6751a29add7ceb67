/**
 * OAuth access tokens from an external OpenID Connect issuer (`SLUICE_OIDC_ISSUER`),
 * verified against the issuer's JWKS found by discovery. Discovery happens on first use
 * and is retried after a failure, so an identity provider that is down at start-up
 * does not stop sluice from starting.
 */
import { Clock, Data, Effect, Option, Schema, SynchronizedRef } from "effect"
import { createRemoteJWKSet, jwtVerify } from "jose"
import { SluiceConfig } from "../config/SluiceConfig.js"

export class InvalidOidcToken extends Data.TaggedError("InvalidOidcToken")<{
  readonly reason: string
}> {}

const Discovery = Schema.Struct({ issuer: Schema.String, jwks_uri: Schema.String })
const OidcClaims = Schema.Struct({
  email: Schema.String,
  email_verified: Schema.optional(Schema.Boolean)
})

type Jwks = ReturnType<typeof createRemoteJWKSet>

export class OidcVerifier extends Effect.Service<OidcVerifier>()("sluice/OidcVerifier", {
  effect: Effect.gen(function* () {
    const { oidc } = yield* SluiceConfig
    const jwks = yield* SynchronizedRef.make(Option.none<Jwks>())

    const discover = (issuer: string) =>
      Effect.tryPromise({
        try: async () => {
          const base = issuer.replace(/\/$/, "")
          const response = await fetch(`${base}/.well-known/openid-configuration`)
          if (!response.ok) throw new Error(`discovery answered ${response.status}`)
          return response.json() as Promise<unknown>
        },
        catch: (e) => new InvalidOidcToken({ reason: `discovery failed: ${String(e)}` })
      }).pipe(
        Effect.flatMap(Schema.decodeUnknown(Discovery)),
        Effect.mapError((e) => new InvalidOidcToken({ reason: String(e) })),
        Effect.map((doc) => createRemoteJWKSet(new URL(doc.jwks_uri)))
      )

    const keySet = (issuer: string) =>
      SynchronizedRef.modifyEffect(jwks, (cached) =>
        Option.match(cached, {
          onSome: (set) => Effect.succeed([set, cached] as const),
          onNone: () => Effect.map(discover(issuer), (set) => [set, Option.some(set)] as const)
        })
      )

    return {
      /** Whether an issuer is configured, and whether a token's `iss` is it. */
      accepts: (issuer: string | undefined) =>
        Option.isSome(oidc) && issuer !== undefined && issuer === oidc.value.issuer,
      verify: Effect.fn("OidcVerifier.verify")(function* (token: string) {
        if (Option.isNone(oidc)) {
          return yield* new InvalidOidcToken({ reason: "no OIDC issuer configured" })
        }
        const { issuer, audience } = oidc.value
        const set = yield* keySet(issuer)
        const currentDate = new Date(yield* Clock.currentTimeMillis)
        const { payload } = yield* Effect.tryPromise({
          try: () => jwtVerify(token, set, { issuer, audience, currentDate }),
          catch: (e) => new InvalidOidcToken({ reason: String(e) })
        })
        const claims = yield* Schema.decodeUnknown(OidcClaims)(payload).pipe(
          Effect.mapError(() => new InvalidOidcToken({ reason: "token has no email claim" }))
        )
        if (claims.email_verified === false) {
          return yield* new InvalidOidcToken({ reason: "email not verified" })
        }
        return { email: claims.email.toLowerCase() }
      })
    }
  })
}) {}
