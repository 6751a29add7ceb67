/**
 * The one cache of the service: values by key, reused for `ttl` on the Effect `Clock`
 * (so tests drive it with `TestClock`). Its owner drops entries when what they were read
 * from changes (`invalidate`, `invalidateAll`), usually on an event the owning capability
 * publishes; a lookup under way at that moment does not store its (maybe stale) result.
 * At `capacity` entries it starts over rather than tracking recency: the entries are
 * cheap to read again. A `shared` cache drops entries on every node of the service.
 */
import { Clock, Duration, Effect } from "effect"
import type { Scope } from "effect"
import { ControlPlaneEvents } from "../events/ControlPlaneEvents.js"

export interface TtlCache<K, A, E, R> {
  readonly get: (key: K) => Effect.Effect<A, E, R>
  readonly invalidate: (key: K) => Effect.Effect<void>
  readonly invalidateAll: Effect.Effect<void>
}

export interface SharedTtlCache<K, A, E, R> extends TtlCache<K, A, E, R> {
  /** Drops every entry of this node only: for an event every node hears anyway. */
  readonly invalidateHere: Effect.Effect<void>
}

export interface Options<K, A, E, R> {
  readonly ttl: Duration.DurationInput
  readonly capacity: number
  readonly lookup: (key: K) => Effect.Effect<A, E, R>
  /** The key's identity in the cache (default: the key itself). */
  readonly keyOf?: (key: K) => unknown
  /** Whether to keep a value (default: every value). */
  readonly keep?: (value: A) => boolean
}

const local = <K, A, E, R>(options: Options<K, A, E, R>) => {
  const ttl = Duration.toMillis(options.ttl)
  const keyOf = options.keyOf ?? ((key: K) => key)
  const entries = new Map<unknown, { readonly at: number; readonly value: A }>()
  let generation = 0
  const drop = (id: unknown) =>
    Effect.sync(() => {
      generation++
      entries.delete(id)
    })
  const dropAll = Effect.sync(() => {
    generation++
    entries.clear()
  })
  const get = (key: K) =>
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
    })
  return { get, keyOf, drop, dropAll }
}

export const make = <K, A, E, R>(options: Options<K, A, E, R>): TtlCache<K, A, E, R> => {
  const cache = local(options)
  return {
    get: cache.get,
    invalidate: (key) => cache.drop(cache.keyOf(key)),
    invalidateAll: cache.dropAll
  }
}

const ALL = "*"
const ONE = "="

/**
 * A cache whose invalidations reach every node on the control plane (published on
 * `topic`): this node's entries are dropped before the call returns, the others' as soon
 * as they hear of it. Keys travel as `keyOf`'s string.
 */
export const shared = <K, A, E, R>(
  topic: string,
  options: Options<K, A, E, R> & { readonly keyOf: (key: K) => string }
): Effect.Effect<SharedTtlCache<K, A, E, R>, never, ControlPlaneEvents | Scope.Scope> =>
  Effect.gen(function* () {
    const events = yield* ControlPlaneEvents
    const cache = local(options)
    yield* events.subscribe(topic, (payload) =>
      payload.startsWith(ONE) ? cache.drop(payload.slice(ONE.length)) : cache.dropAll
    )
    const tell = (payload: string) => events.publish(topic, payload)
    return {
      get: cache.get,
      invalidate: (key) => {
        const id = options.keyOf(key)
        return Effect.zipRight(cache.drop(id), tell(ONE + id))
      },
      invalidateAll: Effect.zipRight(cache.dropAll, tell(ALL)),
      invalidateHere: cache.dropAll
    }
  })
