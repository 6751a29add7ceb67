/** The cluster object, size catalog, storage descriptor and metric series of the spec. */
import { Schema } from "effect"
import { ClusterId } from "../Ids.js"
import { urlSafeName } from "./Names.js"
import { ClusterRef } from "./Scope.js"

/** The phase, for people. Clients decide from `ready`, `can_pause`, `can_resume`, not from this. */
export const ClusterPhase = Schema.Literal(
  "provisioning",
  "ready",
  "pausing",
  "paused",
  "resuming",
  "deleting"
)
export type ClusterPhase = typeof ClusterPhase.Type

/** 0 turns automatic idling off; otherwise 15 minutes to 30 days. */
export const IdleTimeoutMinutes = Schema.Int.pipe(
  Schema.filter((minutes) => minutes === 0 || (minutes >= 15 && minutes <= 43_200), {
    message: () => "idle_timeout_minutes is 0 (off) or 15 through 43200"
  })
)

export class ClusterStatus extends Schema.Class<ClusterStatus>("ClusterStatus")({
  phase: ClusterPhase,
  ready: Schema.Boolean,
  message: Schema.NullOr(Schema.String)
}) {}

export class ReplicaSize extends Schema.Class<ReplicaSize>("ReplicaSize")({
  cpu_cores: Schema.Number,
  memory_bytes: Schema.Int
}) {}

export class ClusterResources extends Schema.Class<ClusterResources>("ClusterResources")({
  shards: Schema.Int,
  replicas: Schema.Int,
  cpu_cores_per_replica: Schema.Number,
  memory_bytes_per_replica: Schema.Int,
  minimum_size: ReplicaSize,
  maximum_size: ReplicaSize
}) {}

export class S3Location extends Schema.Class<S3Location>("S3Location")({
  bucket: Schema.String,
  path: Schema.String
}) {}

/**
 * Customer-owned storage as shown on a cluster or database: where its data and backups
 * go. Never the role or the id it is assumed with.
 */
export class S3Storage extends Schema.Class<S3Storage>("S3Storage")({
  data: S3Location,
  backups: S3Location
}) {}

export class Cluster extends Schema.Class<Cluster>("Cluster")({
  id: ClusterId,
  name: Schema.String,
  /** With a UTC offset, date and time separated by a space. */
  created_at: Schema.String,
  status: ClusterStatus,
  /** Null while resource information is unavailable. */
  resources: Schema.NullOr(ClusterResources),
  can_pause: Schema.Boolean,
  can_resume: Schema.Boolean,
  idle_timeout_minutes: Schema.Int,
  /** Always false: every cluster is its organization's own (existing clients require it). */
  shared: Schema.Boolean,
  /** The customer-owned storage given at creation (`byo_s3` or `s3_storage`), or null. */
  s3_storage: Schema.NullOr(S3Storage)
}) {}

/** The stable input for creation: a pair from the catalog. */
export class ClusterSize extends Schema.Class<ClusterSize>("ClusterSize")({
  cpu_cores: Schema.Number,
  memory_gib: Schema.Number
}) {}

export class SizeOption extends Schema.Class<SizeOption>("SizeOption")({
  /** A display label only. */
  size: Schema.String,
  ...ClusterSize.fields
}) {}

export class SizeCatalog extends Schema.Class<SizeCatalog>("SizeCatalog")({
  min_number_of_replicas: Schema.Int,
  max_number_of_replicas: Schema.Int,
  sizes: Schema.Array(SizeOption),
  default_min_size: SizeOption,
  default_max_size: SizeOption
}) {}

/**
 * Customer-owned object storage, reached by assuming `role_arn` with the organization's
 * own external id (the organization in `GET /v1/clusters`), which the service generates
 * and the role's trust policy names. A caller's `external_id` is accepted and ignored:
 * nobody may choose the id the service assumes a role with.
 */
export class ByoS3 extends Schema.Class<ByoS3>("ByoS3")({
  data: S3Location,
  backups: S3Location,
  role_arn: Schema.String,
  external_id: Schema.optional(Schema.String)
}) {}

export class Autoscaling extends Schema.Class<Autoscaling>("Autoscaling")({
  min_size: ClusterSize,
  max_size: ClusterSize
}) {}

export const ClusterName = urlSafeName("a cluster name")

export class CreateClusterRequest extends Schema.Class<CreateClusterRequest>(
  "CreateClusterRequest"
)({
  name: ClusterName,
  replicas: Schema.Int,
  size: ClusterSize,
  /** Omitted: the catalog's default bounds. `size` must lie within them. */
  autoscaling: Schema.optional(Autoscaling),
  /** Omitted: the configured default. */
  idle_timeout_minutes: Schema.optional(IdleTimeoutMinutes),
  byo_s3: Schema.optional(ByoS3),
  /** The same descriptor under the name `rtree` sends; given with `byo_s3`, the two agree. */
  s3_storage: Schema.optional(ByoS3),
  /** Not supported: present, it is a 400 naming it, never dropped. */
  database_s3_access: Schema.optional(Schema.Unknown)
}) {}

export class UpdateClusterRequest extends Schema.Class<UpdateClusterRequest>(
  "UpdateClusterRequest"
)({
  name: Schema.optional(ClusterName),
  idle_timeout_minutes: Schema.optional(IdleTimeoutMinutes)
}) {}

export const ClusterMetricName = Schema.Literal(
  "total_read_queries",
  "total_write_queries",
  "max_cpu_cores",
  "max_memory_bytes"
)
export type ClusterMetricName = typeof ClusterMetricName.Type

export class MetricPoint extends Schema.Class<MetricPoint>("MetricPoint")({
  /** ISO 8601. */
  time: Schema.String,
  value: Schema.Number,
  /** Present only for replica-scoped series. */
  replica: Schema.optional(Schema.String)
}) {}

export class MetricSeries extends Schema.Class<MetricSeries>("MetricSeries")({
  name: ClusterMetricName,
  label: Schema.String,
  description: Schema.String,
  unit: Schema.String,
  aggregation: Schema.String,
  /** `cluster` or `replica`. */
  scope: Schema.String,
  source: Schema.String,
  points: Schema.Array(MetricPoint)
}) {}

export class ClusterMetrics extends Schema.Class<ClusterMetrics>("ClusterMetrics")({
  cluster: ClusterRef,
  metrics: Schema.Array(MetricSeries)
}) {}
