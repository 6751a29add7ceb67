/**
 * Attempts counted per key (an account, a client address) in fixed windows on the Effect
 * `Clock`. An attempt is counted before the work it guards (so attempts sent together
 * cannot all slip through) and given back when it succeeded, so only failures use a key's
 * allowance. The service's limiters (`AttemptLimiters`) count in the control plane, so
 * every node of one counts the same attempts; `makeAttemptLimiter` counts in memory.
 */
import { createHash } from "node:crypto"
import { SqlClient } from "@effect/sql"
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

export interface AttemptLimiter {
  /**
   * Counts one attempt on every key, or none and `TooManyRequests` (retry after the
   * latest window of a spent key ends) when any key has used its allowance.
   */
  readonly take: (keys: ReadonlyArray<LimitedKey>) => Effect.Effect<void, TooManyRequests>
  /** Gives back the attempt `take` counted on each key (it succeeded). */
  readonly giveBack: (keys: ReadonlyArray<LimitedKey>) => Effect.Effect<void>
}

export type Refusal = (retryAfterSeconds: number) => TooManyRequests

/** In this process's memory: a restart forgets the counts. */
export const makeAttemptLimiter = (
  refused: Refusal,
  // Bounds the memory: past it, expired windows go, then the oldest.
  maxKeys = 100_000
): AttemptLimiter => {
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
    take: (keys) =>
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

    giveBack: (keys) =>
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

/**
 * In the control plane (`attempt_windows`): one count per key for every node, its keys
 * under `name` (limiters of different things count apart). A take is one transaction
 * that locks its keys' rows in one order, so takes on a key from several nodes are
 * counted one after the other.
 */
export const makeSqlAttemptLimiter = (
  sql: SqlClient.SqlClient,
  name: string,
  refused: Refusal
): AttemptLimiter => {
  // A digest: keys hold what callers typed (an email may hold a NUL), kept out of the table.
  const stored = (key: string) => createHash("sha256").update(`${name}/${key}`).digest("hex")
  return {
    take: (keys) =>
      Effect.gen(function* () {
        const now = yield* Clock.currentTimeMillis
        yield* sql`DELETE FROM attempt_windows WHERE ends_at <= ${now}`
        const sorted = keys
          .map(([key, limit]) => [stored(key), limit] as const)
          .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        const counted = sql.withTransaction(
          Effect.gen(function* () {
            let waitUntil = 0
            for (const [key, limit] of sorted) {
              const rows = yield* sql<{ count: number; ends_at: number }>`
              INSERT INTO attempt_windows (key, count, ends_at)
              VALUES (${key}, 0, ${now + limit.windowSeconds * 1000})
              ON CONFLICT (key) DO UPDATE SET
                count = CASE WHEN attempt_windows.ends_at <= ${now} THEN 0
                             ELSE attempt_windows.count END,
                ends_at = CASE WHEN attempt_windows.ends_at <= ${now} THEN excluded.ends_at
                               ELSE attempt_windows.ends_at END
              RETURNING count, ends_at`
              const row = rows[0]
              if (row !== undefined && row.count >= limit.attempts) {
                waitUntil = Math.max(waitUntil, row.ends_at)
              }
            }
            if (waitUntil > 0) return yield* refused(Math.ceil((waitUntil - now) / 1000))
            yield* sql`UPDATE attempt_windows SET count = count + 1
                     WHERE key IN ${sql.in(sorted.map(([key]) => key))}`
          })
        )
        return yield* counted
      }).pipe(Effect.catchTag("SqlError", Effect.die)),

    giveBack: (keys) =>
      Effect.flatMap(
        Clock.currentTimeMillis,
        (now) =>
          sql`UPDATE attempt_windows SET count = count - 1
          WHERE key IN ${sql.in(keys.map(([key]) => stored(key)))} AND ends_at > ${now} AND count > 0`
      ).pipe(Effect.asVoid, Effect.orDie)
  }
}

/** The service's limiters: counted in the control plane, shared by every node. */
export class AttemptLimiters extends Effect.Service<AttemptLimiters>()("sluice/AttemptLimiters", {
  effect: Effect.map(SqlClient.SqlClient, (sql) => ({
    /** The limiter of `name` (one per thing limited: sign-ins, device-login starts…). */
    make: (name: string, refused: Refusal) => makeSqlAttemptLimiter(sql, name, refused)
  }))
}) {}
