/**
 * Email and password to a user, for every password sign-in (`POST /v1/auth/login`, the
 * device-login page, a password change). Unknown users are verified against a decoy hash:
 * same work, same answer, so the response does not tell whether an email has an account.
 *
 * Failed sign-ins are throttled per account and per client address (`AttemptLimiter`,
 * counted in the control plane for every node), before any password is checked; an
 * unknown email counts as a known one does.
 */
import { Effect, Option } from "effect"
import type { Redacted } from "effect"
import { TooManyRequests, Unauthorized } from "../../domain/Errors.js"
import { AttemptLimiters } from "./AttemptLimiter.js"
import type { AttemptLimit, LimitedKey } from "./AttemptLimiter.js"
import { Passwords } from "./Passwords.js"
import { UsersRepo } from "./UsersRepo.js"

/** Failed sign-ins one account may have in a window, from wherever they come. */
export const ACCOUNT_LIMIT: AttemptLimit = { attempts: 10, windowSeconds: 15 * 60 }
/** Failed sign-ins one client address may have in a window, whichever accounts they name. */
export const ADDRESS_LIMIT: AttemptLimit = { attempts: 30, windowSeconds: 15 * 60 }

const refused = new Unauthorized({
  message: "Wrong email or password.",
  hint: "Check both and try again."
})

const tooMany = (retryAfterSeconds: number) =>
  new TooManyRequests({
    message: "Too many failed sign-ins for this account or from this address.",
    hint: `Wait ${retryAfterSeconds} seconds before signing in again.`,
    retryAfterSeconds
  })

export class PasswordLogin extends Effect.Service<PasswordLogin>()("sluice/PasswordLogin", {
  effect: Effect.gen(function* () {
    const users = yield* UsersRepo
    const passwords = yield* Passwords
    const limiter = (yield* AttemptLimiters).make("sign-in", tooMany)
    return {
      /** `client` is the caller's address as `ClientAddress` keys it. */
      login: Effect.fn("PasswordLogin.login")(function* (
        email: string,
        password: Redacted.Redacted<string>,
        client: string
      ) {
        const keys: ReadonlyArray<LimitedKey> = [
          [`account:${email.trim().toLowerCase()}`, ACCOUNT_LIMIT],
          [`address:${client}`, ADDRESS_LIMIT]
        ]
        yield* limiter.take(keys)
        const user = yield* users.findByEmail(email)
        const hash = Option.match(user, { onNone: () => null, onSome: (u) => u.password_hash })
        const ok = yield* passwords.verify(hash, password)
        if (!ok || Option.isNone(user)) return yield* refused
        yield* limiter.giveBack(keys)
        return user.value
      })
    }
  })
}) {}
