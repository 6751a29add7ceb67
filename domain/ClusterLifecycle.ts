/**
 * The cluster lifecycle: `provisioning → ready ⇄ pausing → paused ⇄
 * resuming → ready`, and `deleting`. A transition is recorded at once (a conflicting one
 * fails with `ClusterTransitionConflict`) and finished in the background; work on one
 * cluster's engine is serialised. Activity (the last data request) is kept on the Effect
 * `Clock`, so idling can be driven by `TestClock`.
 */
import { Context, Schema } from "effect"
import type { Effect, Option } from "effect"
import { ByoS3, ClusterPhase } from "./api/ClusterModels.js"
import type { CreateClusterRequest, SizeCatalog } from "./api/ClusterModels.js"
import type {
  ClusterTransitionConflict,
  DuplicateClusterName,
  Forbidden,
  InvalidClusterSize
} from "./Errors.js"
import type { EngineUnavailable } from "./Engine.js"
import { ClusterId, OrganizationId } from "./Ids.js"

/** Who paused a cluster: an admin's pause keeps it paused; an idle pause wakes on use. */
export const PausedBy = Schema.Literal("admin", "idle")
export type PausedBy = typeof PausedBy.Type

/** What a cluster is asked to be: size, bounds and idling. */
export const ClusterSizing = {
  replicas: Schema.Int,
  cpu_cores: Schema.Number,
  memory_gib: Schema.Number,
  min_cpu_cores: Schema.Number,
  min_memory_gib: Schema.Number,
  max_cpu_cores: Schema.Number,
  max_memory_gib: Schema.Number,
  idle_timeout_minutes: Schema.Int
}

/** A cluster as the control plane records it. */
export class ClusterRecord extends Schema.Class<ClusterRecord>("ClusterRecord")({
  id: ClusterId,
  organization_id: OrganizationId,
  name: Schema.String,
  phase: ClusterPhase,
  status_message: Schema.NullOr(Schema.String),
  paused_by: Schema.NullOr(PausedBy),
  shards: Schema.Int,
  ...ClusterSizing,
  /** `YYYY-MM-DD HH:MM:SS+00:00`, as the cluster object shows it. */
  created_at: Schema.String,
  /** The customer-owned storage given at creation, with the organization's external id. */
  byo_s3: Schema.NullOr(ByoS3)
}) {}

/** A cluster's phase as last recorded, as the data plane needs it. */
export class ClusterState extends Schema.Class<ClusterState>("ClusterState")({
  phase: ClusterPhase,
  pausedBy: Schema.NullOr(PausedBy),
  name: Schema.String
}) {}

/** The fields an update may change; absent ones stay. */
export interface ClusterUpdate {
  readonly name?: string | undefined
  readonly idle_timeout_minutes?: number | undefined
}

export class ClusterLifecycle extends Context.Tag("sluice/ClusterLifecycle")<
  ClusterLifecycle,
  {
    /** The sizes a cluster may have (`SLUICE_CLUSTER_SIZES`). */
    readonly sizes: SizeCatalog
    /** The organization's clusters, by name (deleted ones are gone). */
    readonly clustersOf: (
      organization: OrganizationId
    ) => Effect.Effect<ReadonlyArray<ClusterRecord>>
    /**
     * The organization's cluster with this id, or this name. Another organization's cluster
     * is `None`, exactly as a missing one: which ids exist elsewhere is not told.
     */
    readonly find: (
      organization: OrganizationId,
      cluster: { readonly id: ClusterId } | { readonly name: string }
    ) => Effect.Effect<Option.Option<ClusterRecord>>
    /** The external id the organization's roles on customer-owned storage are assumed with. */
    readonly externalId: (organization: OrganizationId) => Effect.Effect<string>
    /**
     * Records a cluster with its `default` database; its engine starts in the background.
     * `Forbidden` when the organization has as many clusters as it may.
     */
    readonly create: (
      organization: OrganizationId,
      request: CreateClusterRequest
    ) => Effect.Effect<ClusterRecord, InvalidClusterSize | DuplicateClusterName | Forbidden>
    readonly pause: (
      cluster: ClusterRecord,
      by: PausedBy
    ) => Effect.Effect<ClusterRecord, ClusterTransitionConflict>
    readonly resume: (
      cluster: ClusterRecord
    ) => Effect.Effect<ClusterRecord, ClusterTransitionConflict>
    /** Permanent: hidden and its keys revoked at once; engine and data removed after. */
    readonly delete: (cluster: ClusterRecord) => Effect.Effect<void>
    readonly update: (
      cluster: ClusterRecord,
      fields: ClusterUpdate
    ) => Effect.Effect<ClusterRecord, DuplicateClusterName>
    /** Counts as activity, for idling. */
    readonly touch: (cluster: ClusterId) => Effect.Effect<void>
    /** The cluster's phase as last recorded; `None` for a cluster that does not exist. */
    readonly stateOf: (cluster: ClusterId) => Effect.Effect<Option.Option<ClusterState>>
    /** The last data request, on the Effect clock; `None` before the first. */
    readonly lastActivity: (cluster: ClusterId) => Effect.Effect<Option.Option<number>>
    /** Starts the engines of clusters that should run, and finishes interrupted transitions. */
    readonly boot: Effect.Effect<void>
    /** Starts the engine of a ready cluster that is not running (after a restart). */
    readonly ensureStarted: (cluster: ClusterId) => Effect.Effect<void, EngineUnavailable>
  }
>() {}
