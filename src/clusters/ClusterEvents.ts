/**
 * What the cluster lifecycle tells other capabilities, on every node: a cluster was
 * renamed or deleted (`ApiKeysRepo` caches key lookups that carry the cluster's name and
 * only find keys of live clusters).
 */
import { Effect, Schema } from "effect"
import { ClusterId } from "../../domain/Ids.js"
import { makeShared } from "../events/Listeners.js"

export const ClusterChanged = Schema.Struct({
  cluster: ClusterId,
  change: Schema.Literal("renamed", "deleted")
})
export type ClusterChanged = typeof ClusterChanged.Type

export class ClusterEvents extends Effect.Service<ClusterEvents>()("sluice/ClusterEvents", {
  scoped: makeShared("clusters", ClusterChanged)
}) {}
