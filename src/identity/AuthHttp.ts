/**
 * `/v1/auth/…`: email and password for a session JWT, signing out, and a password change
 * (which ends every session of the user and hands back a new one).
 */
import { HttpApiBuilder } from "@effect/platform"
import { Clock, Effect } from "effect"
import { SluiceApi } from "../../domain/Api.js"
import { LoginResponse, SignedOut } from "../../domain/api/AuthApi.js"
import { Authorization } from "../../domain/Authorization.js"
import { BadRequest } from "../../domain/Errors.js"
import { CurrentCaller } from "../../domain/Identity.js"
import { SluiceConfig } from "../config/SluiceConfig.js"
import { clientAddress } from "./http/ClientAddress.js"
import { Passwords } from "./Passwords.js"
import { PasswordLogin } from "./PasswordLogin.js"
import { SessionsRepo } from "./SessionsRepo.js"
import { SessionTokens } from "./SessionTokens.js"
import { UsersRepo } from "./UsersRepo.js"

const notASession = new BadRequest({
  message: "This credential is not a sluice session.",
  hint: "An OAuth access token ends at its issuer; sign out there."
})

export const AuthHttpLive = HttpApiBuilder.group(SluiceApi, "auth", (handlers) =>
  Effect.gen(function* () {
    const passwordLogin = yield* PasswordLogin
    const sessions = yield* SessionTokens
    const revocations = yield* SessionsRepo
    const users = yield* UsersRepo
    const passwords = yield* Passwords
    const authorization = yield* Authorization
    const { trustProxy } = yield* SluiceConfig
    const currentUser = Effect.flatMap(CurrentCaller, authorization.user)

    return handlers
      .handle("login", ({ payload, request }) =>
        Effect.gen(function* () {
          const user = yield* passwordLogin.login(
            payload.email,
            payload.password,
            clientAddress(request, trustProxy)
          )
          const token = yield* sessions.issue(user)
          return new LoginResponse({ token, email: user.email })
        })
      )
      .handle("logout", () =>
        Effect.gen(function* () {
          const user = yield* currentUser
          if (user.session === undefined) return yield* notASession
          const now = yield* Clock.currentTimeMillis
          yield* revocations.revoke(
            user.userId,
            user.session.id,
            new Date(user.session.expiresAt),
            new Date(now)
          )
          return new SignedOut({ signed_out: true })
        })
      )
      .handle("changePassword", ({ payload, request }) =>
        Effect.gen(function* () {
          const caller = yield* currentUser
          const user = yield* passwordLogin.login(
            caller.email,
            payload.current_password,
            clientAddress(request, trustProxy)
          )
          const changed = yield* users.changePassword(
            user.id,
            yield* passwords.hash(payload.new_password)
          )
          const token = yield* sessions.issue(changed)
          return new LoginResponse({ token, email: changed.email })
        })
      )
  })
)
