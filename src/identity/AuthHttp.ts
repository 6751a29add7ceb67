/**
 * `/v1/auth/…` (`Sessions`): email and password for a session JWT, signing out, and a
 * password change. The client's address (what failed sign-ins are counted by) is read
 * here, as the proxy settings say.
 */
import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { SluiceApi } from "../../domain/Api.js"
import { requestScopes } from "../http/RequestScope.js"
import { SignedOut } from "../../domain/api/AuthApi.js"
import { Sessions } from "../../domain/Sessions.js"
import { SluiceConfig } from "../config/SluiceConfig.js"
import { clientAddress } from "./http/ClientAddress.js"

export const AuthHttpLive = HttpApiBuilder.group(SluiceApi, "auth", (handlers) =>
  Effect.gen(function* () {
    const sessions = yield* Sessions
    const { trustProxy } = yield* SluiceConfig
    // The calling user (an API key is refused here; the capability checks the rest).
    const currentUser = (yield* requestScopes).user

    return handlers
      .handle("login", ({ payload, request }) =>
        sessions.login(payload.email, payload.password, clientAddress(request, trustProxy))
      )
      .handle("logout", () =>
        Effect.gen(function* () {
          yield* sessions.logout(yield* currentUser)
          return new SignedOut({ signed_out: true })
        })
      )
      .handle("changePassword", ({ payload, request }) =>
        Effect.gen(function* () {
          return yield* sessions.changePassword(
            yield* currentUser,
            payload.current_password,
            payload.new_password,
            clientAddress(request, trustProxy)
          )
        })
      )
  })
)
