/** A cluster row as the spec's cluster object. */
import {
  Cluster,
  ClusterResources,
  ClusterStatus,
  ReplicaSize,
  S3Storage
} from "../../domain/api/ClusterModels.js"
import type { EngineStatus } from "../../domain/Provisioner.js"
import type { ClusterRecord } from "../../domain/ClusterLifecycle.js"

const GIB = 1024 ** 3

const size = (cpu_cores: number, memory_gib: number) =>
  new ReplicaSize({ cpu_cores, memory_bytes: Math.round(memory_gib * GIB) })

/**
 * `engine` adds what only the running engine knows (a crash and restart). Resources are
 * null while the cluster is being provisioned: nothing runs with them yet.
 */
export const clusterView = (row: ClusterRecord, engine: EngineStatus): Cluster =>
  new Cluster({
    id: row.id,
    name: row.name,
    created_at: row.created_at,
    status: new ClusterStatus({
      phase: row.phase,
      ready: row.phase === "ready",
      message: row.status_message ?? engine.message
    }),
    resources:
      row.phase === "provisioning"
        ? null
        : new ClusterResources({
            shards: row.shards,
            replicas: row.replicas,
            cpu_cores_per_replica: row.cpu_cores,
            memory_bytes_per_replica: Math.round(row.memory_gib * GIB),
            minimum_size: size(row.min_cpu_cores, row.min_memory_gib),
            maximum_size: size(row.max_cpu_cores, row.max_memory_gib)
          }),
    can_pause: row.phase === "ready",
    can_resume: row.phase === "paused",
    idle_timeout_minutes: row.idle_timeout_minutes,
    shared: false,
    s3_storage:
      row.byo_s3 === null
        ? null
        : new S3Storage({ data: row.byo_s3.data, backups: row.byo_s3.backups })
  })
