/**
 * The one cache of the service: values by key, reused for `ttl` on the Effect `Clock`
 * (so tests drive it with `TestClock`). Its owner drops entries when what they were read
 * from changes (`invalidate`, `invalidateAll`), usually on an event the owning capability
 * publishes; a lookup under way at that moment does not store its (maybe stale) result.
 * At `capacity` entries it starts over rather than tracking recency: the entries are
 * cheap to read again.
 */
import { Clock, Duration, Effect } from "effect"

export interface TtlCache<K, A, E, R> {
  readonly get: (key: K) => Effect.Effect<A, E, R>
  readonly invalidate: (key: K) => Effect.Effect<void>
  readonly invalidateAll: Effect.Effect<void>
}

export const make = <K, A, E, R>(options: {
  readonly ttl: Duration.DurationInput
  readonly capacity: number
  readonly lookup: (key: K) => Effect.Effect<A, E, R>
  /** The key's identity in the cache (default: the key itself). */
  readonly keyOf?: (key: K) => unknown
  /** Whether to keep a value (default: every value). */
  readonly keep?: (value: A) => boolean
}): TtlCache<K, A, E, R> => {
  const ttl = Duration.toMillis(options.ttl)
  const keyOf = options.keyOf ?? ((key: K) => key)
  const entries = new Map<unknown, { readonly at: number; readonly value: A }>()
  let generation = 0
  return {
    get: (key) =>
      Effect.flatMap(Clock.currentTimeMillis, (now) => {
        const id = keyOf(key)
        const hit = entries.get(id)
        if (hit !== undefined && now - hit.at < ttl) return Effect.succeed(hit.value)
        const seen = generation
        return Effect.tap(options.lookup(key), (value) => {
          if (seen !== generation || (options.keep !== undefined && !options.keep(value))) return
          if (entries.size >= options.capacity) entries.clear()
          entries.set(id, { at: now, value })
        })
      }),
    invalidate: (key) =>
      Effect.sync(() => {
        generation++
        entries.delete(keyOf(key))
      }),
    invalidateAll: Effect.sync(() => {
      generation++
      entries.clear()
    })
  }
}
