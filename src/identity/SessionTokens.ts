/**
 * Session JWTs issued by `POST /v1/auth/login`: HS256 with the service's own secret,
 * 12 hours, subject the user id. Time comes from Effect's `Clock` so tests can move it.
 */
import { Clock, Data, Effect, Redacted, Schema } from "effect"
import { SignJWT, jwtVerify } from "jose"
import { UserId } from "../../domain/Ids.js"
import { ServiceSecrets } from "./ServiceSecrets.js"

export const SESSION_ISSUER = "urn:sluice:session"
const LIFETIME_SECONDS = 12 * 60 * 60

export class InvalidSessionToken extends Data.TaggedError("InvalidSessionToken")<{
  readonly reason: string
}> {}

const SessionClaims = Schema.Struct({ sub: UserId, email: Schema.String })

export class SessionTokens extends Effect.Service<SessionTokens>()("sluice/SessionTokens", {
  effect: Effect.gen(function* () {
    const secrets = yield* ServiceSecrets
    const key = () => new Uint8Array(Redacted.value(secrets.jwtSecret))
    return {
      issue: Effect.fn("SessionTokens.issue")(function* (user: {
        readonly id: UserId
        readonly email: string
      }) {
        const now = Math.floor((yield* Clock.currentTimeMillis) / 1000)
        return yield* Effect.promise(() =>
          new SignJWT({ email: user.email })
            .setProtectedHeader({ alg: "HS256", typ: "JWT" })
            .setIssuer(SESSION_ISSUER)
            .setAudience(SESSION_ISSUER)
            .setSubject(user.id)
            .setIssuedAt(now)
            .setExpirationTime(now + LIFETIME_SECONDS)
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
              currentDate
            }),
          catch: (e) => new InvalidSessionToken({ reason: String(e) })
        })
        return yield* Schema.decodeUnknown(SessionClaims)(payload).pipe(
          Effect.mapError(() => new InvalidSessionToken({ reason: "claims" }))
        )
      })
    }
  })
}) {}
