/** `POST /v1/auth/login`: email and password for a session JWT. */
import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { SluiceApi } from "../../domain/Api.js"
import { LoginResponse } from "../../domain/api/AuthApi.js"
import { passwordLogin } from "./PasswordLogin.js"
import { SessionTokens } from "./SessionTokens.js"

export const AuthHttpLive = HttpApiBuilder.group(SluiceApi, "auth", (handlers) =>
  Effect.gen(function* () {
    const login = yield* passwordLogin
    const sessions = yield* SessionTokens
    return handlers.handle("login", ({ payload }) =>
      Effect.gen(function* () {
        const user = yield* login(payload.email, payload.password)
        const token = yield* sessions.issue(user)
        return new LoginResponse({ token, email: user.email })
      })
    )
  })
)
