/**
 * Waiting for work a test cannot await (a background fiber, an engine worker process):
 * look again a bounded number of times, with a short real pause between looks (also
 * under a `TestClock`). What a test asserts is the condition, never how long it took.
 */
import { Effect } from "effect"

const pause = (ms: number) => Effect.promise(() => new Promise((r) => setTimeout(r, ms)))

/** Re-runs `look` until it returns a value (not `undefined`); dies after `attempts` looks. */
export const eventually = <A, E, R>(
  what: string,
  look: Effect.Effect<A | undefined, E, R>,
  options: { readonly attempts?: number; readonly pauseMs?: number } = {}
): Effect.Effect<A, E, R> =>
  Effect.gen(function* () {
    const attempts = options.attempts ?? 300
    for (let attempt = 1; attempt <= attempts; attempt++) {
      const found = yield* look
      if (found !== undefined) return found
      if (attempt < attempts) yield* pause(options.pauseMs ?? 50)
    }
    return yield* Effect.dieMessage(`gave up waiting for ${what} after ${attempts} looks`)
  })
