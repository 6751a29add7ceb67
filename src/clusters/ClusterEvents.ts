/**
 * What the cluster lifecycle tells other capabilities: a cluster was renamed or deleted
 * (`ApiKeysRepo` caches key lookups that carry the cluster's name and only find keys of
 * live clusters).
 */
import { Effect } from "effect"
import type { ClusterId } from "../../domain/Ids.js"
import { makeListeners } from "../events/Listeners.js"

export interface ClusterChanged {
  readonly cluster: ClusterId
  readonly change: "renamed" | "deleted"
}

export class ClusterEvents extends Effect.Service<ClusterEvents>()("sluice/ClusterEvents", {
  sync: () => makeListeners<ClusterChanged>()
}) {}
