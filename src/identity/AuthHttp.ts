/** `POST /v1/auth/login`: email and password for a session JWT. */
import { HttpApiBuilder } from "@effect/platform"
import { Effect, Option } from "effect"
import { Unauthorized } from "../../domain/Errors.js"
import { SluiceApi } from "../../domain/Api.js"
import { LoginResponse } from "../../domain/api/AuthApi.js"
import { Passwords } from "./Passwords.js"
import { SessionTokens } from "./SessionTokens.js"
import { UsersRepo } from "./UsersRepo.js"

const refused = new Unauthorized({
  message: "Wrong email or password.",
  hint: "Check both and try again."
})

export const AuthHttpLive = HttpApiBuilder.group(SluiceApi, "auth", (handlers) =>
  Effect.gen(function* () {
    const users = yield* UsersRepo
    const passwords = yield* Passwords
    const sessions = yield* SessionTokens
    return handlers.handle("login", ({ payload }) =>
      Effect.gen(function* () {
        const user = yield* users.findByEmail(payload.email)
        // Unknown users are verified against a decoy hash: same work, same answer.
        const hash = Option.match(user, { onNone: () => null, onSome: (u) => u.password_hash })
        const ok = yield* passwords.verify(hash, payload.password)
        if (!ok || Option.isNone(user)) return yield* refused
        const token = yield* sessions.issue(user.value)
        return new LoginResponse({ token, email: user.value.email })
      })
    )
  })
)
