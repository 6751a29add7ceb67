/**
 * Email and password to a user, for every password sign-in (`POST /v1/auth/login` and the
 * device-login page). Unknown users are verified against a decoy hash: same work, same
 * answer, so the response does not tell whether an email has an account.
 */
import { Effect, Option } from "effect"
import type { Redacted } from "effect"
import { Unauthorized } from "../../domain/Errors.js"
import { Passwords } from "./Passwords.js"
import { UsersRepo } from "./UsersRepo.js"

const refused = new Unauthorized({
  message: "Wrong email or password.",
  hint: "Check both and try again."
})

export const passwordLogin = Effect.gen(function* () {
  const users = yield* UsersRepo
  const passwords = yield* Passwords
  return Effect.fn("PasswordLogin.login")(function* (
    email: string,
    password: Redacted.Redacted<string>
  ) {
    const user = yield* users.findByEmail(email)
    const hash = Option.match(user, { onNone: () => null, onSome: (u) => u.password_hash })
    const ok = yield* passwords.verify(hash, password)
    if (!ok || Option.isNone(user)) return yield* refused
    return user.value
  })
})
