/**
 * `Sessions` over the control plane: passwords checked by `PasswordLogin` (with its
 * attempt limits), session JWTs made by `SessionTokens`, revocations in `SessionsRepo`.
 */
import { Clock, Effect, Layer } from "effect"
import { LoginResponse } from "../../domain/api/AuthApi.js"
import { BadRequest } from "../../domain/Errors.js"
import { Sessions } from "../../domain/Sessions.js"
import { Passwords } from "./Passwords.js"
import { PasswordLogin } from "./PasswordLogin.js"
import { SessionsRepo } from "./SessionsRepo.js"
import { SessionTokens } from "./SessionTokens.js"
import { UsersRepo } from "./UsersRepo.js"

const notASession = new BadRequest({
  message: "This credential is not a sluice session.",
  hint: "An OAuth access token ends at its issuer; sign out there."
})

export const SessionsLive = Layer.effect(
  Sessions,
  Effect.gen(function* () {
    const passwordLogin = yield* PasswordLogin
    const tokens = yield* SessionTokens
    const revocations = yield* SessionsRepo
    const users = yield* UsersRepo
    const passwords = yield* Passwords

    return Sessions.of({
      login: (email, password, client) =>
        Effect.gen(function* () {
          const user = yield* passwordLogin.login(email, password, client)
          return new LoginResponse({ token: yield* tokens.issue(user), email: user.email })
        }),

      logout: (user) =>
        Effect.gen(function* () {
          if (user.session === undefined) return yield* notASession
          const now = yield* Clock.currentTimeMillis
          yield* revocations.revoke(
            user.userId,
            user.session.id,
            new Date(user.session.expiresAt),
            new Date(now)
          )
        }),

      changePassword: (user, current, next, client) =>
        Effect.gen(function* () {
          const checked = yield* passwordLogin.login(user.email, current, client)
          const changed = yield* users.changePassword(checked.id, yield* passwords.hash(next))
          return new LoginResponse({ token: yield* tokens.issue(changed), email: changed.email })
        })
    })
  })
)
