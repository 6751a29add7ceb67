/**
 * Session JWTs issued by `POST /v1/auth/login`: HS256 with the service's own secret,
 * 12 hours, subject the user id. Each carries its own id (`jti`, what sign-out revokes)
 * and the user's session generation (`gen`, which a password change moves on, ending
 * every earlier session); `SessionsRepo` holds both. A token without an expiry, or
 * meant to live longer than a session does, is refused however it is signed. Time comes
 * from Effect's `Clock` so tests can move it.
 */
import { randomBytes } from "node:crypto"
import { Clock, Data, Effect, Redacted, Schema } from "effect"
import { SignJWT, jwtVerify } from "jose"
import { UserId } from "../../domain/Ids.js"
import { ServiceSecrets } from "./ServiceSecrets.js"

export const SESSION_ISSUER = "urn:sluice:session"
export const SESSION_SECONDS = 12 * 60 * 60

export class InvalidSessionToken extends Data.TaggedError("InvalidSessionToken")<{
  readonly reason: string
}> {}

export class SessionClaims extends Schema.Class<SessionClaims>("SessionClaims")({
  sub: UserId,
  email: Schema.String,
  jti: Schema.String,
  gen: Schema.Int,
  iat: Schema.Int,
  exp: Schema.Int
}) {}

export class SessionTokens extends Effect.Service<SessionTokens>()("sluice/SessionTokens", {
  effect: Effect.gen(function* () {
    const secrets = yield* ServiceSecrets
    const key = () => new Uint8Array(Redacted.value(secrets.jwtSecret))
    return {
      issue: Effect.fn("SessionTokens.issue")(function* (user: {
        readonly id: UserId
        readonly email: string
        readonly session_generation: number
      }) {
        const now = Math.floor((yield* Clock.currentTimeMillis) / 1000)
        return yield* Effect.promise(() =>
          new SignJWT({ email: user.email, gen: user.session_generation })
            .setProtectedHeader({ alg: "HS256", typ: "JWT" })
            .setIssuer(SESSION_ISSUER)
            .setAudience(SESSION_ISSUER)
            .setSubject(user.id)
            .setJti(randomBytes(16).toString("base64url"))
            .setIssuedAt(now)
            .setExpirationTime(now + SESSION_SECONDS)
            .sign(key())
        )
      }),
      verify: Effect.fn("SessionTokens.verify")(function* (token: string) {
        const currentDate = new Date(yield* Clock.currentTimeMillis)
        const { payload } = yield* Effect.tryPromise({
          try: () =>
            jwtVerify(token, key(), {
              issuer: SESSION_ISSUER,
              audience: SESSION_ISSUER,
              algorithms: ["HS256"],
              requiredClaims: ["exp", "iat", "jti", "sub"],
              maxTokenAge: SESSION_SECONDS,
              currentDate
            }),
          catch: (e) => new InvalidSessionToken({ reason: String(e) })
        })
        const claims = yield* Schema.decodeUnknown(SessionClaims)(payload).pipe(
          Effect.mapError(() => new InvalidSessionToken({ reason: "claims" }))
        )
        if (claims.exp - claims.iat > SESSION_SECONDS) {
          return yield* new InvalidSessionToken({ reason: "lives longer than a session" })
        }
        return claims
      })
    }
  })
}) {}
