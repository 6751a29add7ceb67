/**
 * Attempts counted per key (an account, a client address) in fixed windows on the Effect
 * `Clock`, in this process's memory: a restart forgets them, and each node of several
 * counts its own. An attempt is counted before the work it guards (so attempts sent
 * together cannot all slip through) and given back when it succeeded, so only failures
 * use a key's allowance.
 */
import { Clock, Effect } from "effect"
import type { TooManyRequests } from "../../domain/Errors.js"

export interface AttemptLimit {
  readonly attempts: number
  readonly windowSeconds: number
}

interface Window {
  count: number
  readonly endsAt: number
}

/** A key and the limit it is held to. */
export type LimitedKey = readonly [key: string, limit: AttemptLimit]

export const makeAttemptLimiter = (
  refused: (retryAfterSeconds: number) => TooManyRequests,
  // Bounds the memory: past it, expired windows go, then the oldest.
  maxKeys = 100_000
) => {
  const windows = new Map<string, Window>()

  const live = (key: string, now: number) => {
    const window = windows.get(key)
    if (window === undefined || window.endsAt > now) return window
    windows.delete(key)
    return undefined
  }

  const makeRoom = (now: number) => {
    if (windows.size < maxKeys) return
    for (const [key, window] of windows) if (window.endsAt <= now) windows.delete(key)
    for (const key of windows.keys()) {
      if (windows.size < maxKeys) break
      windows.delete(key)
    }
  }

  return {
    /**
     * Counts one attempt on every key, or none and `TooManyRequests` (retry after the
     * latest window of a spent key ends) when any key has used its allowance.
     */
    take: (keys: ReadonlyArray<LimitedKey>) =>
      Effect.flatMap(Clock.currentTimeMillis, (now) => {
        let waitUntil = 0
        for (const [key, limit] of keys) {
          const window = live(key, now)
          if (window !== undefined && window.count >= limit.attempts) {
            waitUntil = Math.max(waitUntil, window.endsAt)
          }
        }
        if (waitUntil > 0) return Effect.fail(refused(Math.ceil((waitUntil - now) / 1000)))
        for (const [key, limit] of keys) {
          const window = live(key, now)
          if (window !== undefined) {
            window.count += 1
          } else {
            makeRoom(now)
            windows.set(key, { count: 1, endsAt: now + limit.windowSeconds * 1000 })
          }
        }
        return Effect.void
      }),

    /** Gives back the attempt `take` counted on each key (it succeeded). */
    giveBack: (keys: ReadonlyArray<LimitedKey>) =>
      Effect.flatMap(Clock.currentTimeMillis, (now) =>
        Effect.sync(() => {
          for (const [key] of keys) {
            const window = live(key, now)
            if (window !== undefined && window.count > 0) window.count -= 1
          }
        })
      )
  }
}

export type AttemptLimiter = ReturnType<typeof makeAttemptLimiter>
