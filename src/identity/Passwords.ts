/** argon2id password hashing. Hashing runs on libuv's pool, not the event loop. */
import { hash, verify } from "@node-rs/argon2"
import { Effect, Redacted } from "effect"

// OWASP's argon2id baseline (19 MiB, 2 passes).
const options = { memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const

export class Passwords extends Effect.Service<Passwords>()("sluice/Passwords", {
  effect: Effect.gen(function* () {
    // Verifying against this when the user does not exist costs what a real check
    // costs, so the response time does not reveal which emails have accounts.
    const decoy = yield* Effect.promise(() => hash("decoy-password-never-matches", options))
    return {
      hash: Effect.fn("Passwords.hash")(function* (password: Redacted.Redacted<string>) {
        return yield* Effect.promise(() => hash(Redacted.value(password), options))
      }),
      /** `false` for a missing hash too, after the same amount of work. */
      verify: Effect.fn("Passwords.verify")(function* (
        stored: string | null,
        password: Redacted.Redacted<string>
      ) {
        const ok = yield* Effect.promise(() =>
          verify(stored ?? decoy, Redacted.value(password)).catch(() => false)
        )
        return ok && stored !== null
      })
    }
  })
}) {}
