/**
 * Events a capability publishes to the others that keep something derived from its data
 * (a cache). Listeners run in the publisher's fiber before the change's caller gets its
 * answer, so the next request never sees a stale derived value. `makeShared` events also
 * reach the listeners of every other node on the control plane (`ControlPlaneEvents`),
 * a moment later.
 */
import { Effect, Schema } from "effect"
import type { Scope } from "effect"
import { ControlPlaneEvents } from "./ControlPlaneEvents.js"

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

/** Listeners on every node: events travel as `schema`'s JSON on `topic`. */
export const makeShared = <A, I>(topic: string, schema: Schema.Schema<A, I>) =>
  Effect.gen(function* () {
    const nodes = yield* ControlPlaneEvents
    const here = makeListeners<A>()
    const json = Schema.parseJson(schema)
    yield* nodes.subscribe(topic, (payload) =>
      Effect.flatMap(Effect.option(Schema.decode(json)(payload)), (event) =>
        event._tag === "Some" ? here.publish(event.value) : Effect.void
      )
    )
    return {
      publish: (event: A) =>
        Effect.zipRight(
          here.publish(event),
          Effect.flatMap(Effect.orDie(Schema.encode(json)(event)), (text) =>
            nodes.publish(topic, text)
          )
        ),
      subscribe: here.subscribe
    }
  })
