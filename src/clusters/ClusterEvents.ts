/**
 * What the cluster lifecycle tells other capabilities: a cluster was renamed or deleted.
 * Listeners run in the publisher's fiber, before the change's caller gets its answer, so
 * a cache that holds cluster names or live keys (`ApiKeysRepo`) is never seen stale by
 * the next request.
 */
import { Effect } from "effect"
import type { Scope } from "effect"
import type { ClusterId } from "../../domain/Ids.js"

export interface ClusterChanged {
  readonly cluster: ClusterId
  readonly change: "renamed" | "deleted"
}

type Listener = (event: ClusterChanged) => Effect.Effect<void>

export class ClusterEvents extends Effect.Service<ClusterEvents>()("sluice/ClusterEvents", {
  sync: () => {
    const listeners = new Set<Listener>()
    return {
      publish: (event: ClusterChanged) =>
        Effect.forEach(listeners, (listener) => listener(event), { discard: true }),
      /** Calls `listener` on every change while the enclosing scope is open. */
      subscribe: (listener: Listener): Effect.Effect<void, never, Scope.Scope> =>
        Effect.acquireRelease(
          Effect.sync(() => void listeners.add(listener)),
          () => Effect.sync(() => void listeners.delete(listener))
        )
    }
  }
}) {}
