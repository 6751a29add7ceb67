/**
 * Events a capability publishes to the others that keep something derived from its data
 * (a cache). Listeners run in the publisher's fiber before the change's caller gets its
 * answer, so the next request never sees a stale derived value.
 */
import { Effect } from "effect"
import type { Scope } from "effect"

export type Listener<A> = (event: A) => Effect.Effect<void>

export const makeListeners = <A>() => {
  const listeners = new Set<Listener<A>>()
  return {
    publish: (event: A) =>
      Effect.suspend(() =>
        Effect.forEach(listeners, (listener) => listener(event), { discard: true })
      ),
    /** Calls `listener` on every event while the enclosing scope is open. */
    subscribe: (listener: Listener<A>): Effect.Effect<void, never, Scope.Scope> =>
      Effect.acquireRelease(
        Effect.sync(() => void listeners.add(listener)),
        () => Effect.sync(() => void listeners.delete(listener))
      )
  }
}
