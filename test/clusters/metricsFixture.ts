/**
 * A real PGlite control plane with the metrics services, clusters created through
 * `ClustersRepo`, and a scripted `Provisioner` whose `sample` answers with readings the
 * test queues per cluster (only the sampler's scheduling logic runs against it).
 */
import { SqlClient } from "@effect/sql"
import { afterAll } from "@effect/vitest"
import { ConfigProvider, Effect, Layer, TestServices } from "effect"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import type { ClusterPhase } from "../../domain/api/ClusterModels.js"
import type { ClusterId } from "../../domain/Ids.js"
import { OrganizationId } from "../../domain/Ids.js"
import { EngineSample, Provisioner } from "../../domain/Provisioner.js"
import { ClustersRepo, NewCluster } from "../../src/clusters/ClustersRepo.js"
import { ClusterMetricsQuery } from "../../src/clusters/usage/ClusterMetricsQuery.js"
import { ClusterUsageLive } from "../../src/clusters/usage/ClusterUsageLive.js"
import { MetricsStore } from "../../src/clusters/usage/MetricsStore.js"
import { SluiceConfig, sluiceConfig } from "../../src/config/SluiceConfig.js"
import * as ControlPlaneSql from "../../src/store/ControlPlaneSql.js"

/** What each `sample(cluster)` call answers, in order; past the end, no readings. */
export const script = new Map<ClusterId, Array<Effect.Effect<ReadonlyArray<EngineSample>>>>()
/** Every cluster `sample` was called for, in call order. */
export const sampled: Array<ClusterId> = []

const unused = Effect.die("not used by the metrics tests")

const ScriptedProvisioner = Layer.succeed(Provisioner, {
  start: () => unused,
  stop: () => unused,
  destroy: () => unused,
  engine: () => unused,
  status: () => unused,
  sample: (cluster) =>
    Effect.suspend(() => {
      sampled.push(cluster)
      return script.get(cluster)?.shift() ?? Effect.succeed([])
    })
})

export const reading = (
  replica: string,
  values: { read: number; write: number; cpu: number; memory: number }
) =>
  new EngineSample({
    replica,
    readQueries: values.read,
    writeQueries: values.write,
    cpuCores: values.cpu,
    memoryBytes: values.memory
  })

export const metricsLayer = (env: Record<string, string> = {}) => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "sluice-metrics-"))
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }))
  const config = Layer.effect(
    SluiceConfig,
    Effect.withConfigProvider(sluiceConfig, ConfigProvider.fromMap(new Map(Object.entries(env))))
  )
  return Layer.mergeAll(
    ClusterUsageLive.pipe(Layer.provideMerge(ClusterMetricsQuery.DefaultWithoutDependencies)),
    ClustersRepo.Default,
    ScriptedProvisioner
  ).pipe(
    Layer.provideMerge(MetricsStore.Default),
    Layer.provideMerge(config),
    Layer.provideMerge(ControlPlaneSql.embedded({ dataDir })),
    Layer.orDie
  )
}

let organizations = 0

/** A cluster in its own organization, in `phase`. */
export const createCluster = (phase: ClusterPhase) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql<{ id: string }>`insert into organizations (name)
      values (${`metrics-org-${++organizations}`}) returning id`
    const organization = OrganizationId.make(rows[0]?.id ?? "")
    const cluster = yield* (yield* ClustersRepo).create(
      new NewCluster({
        organization_id: organization,
        name: "metrics",
        phase,
        replicas: 2,
        cpu_cores: 1,
        memory_gib: 4,
        min_cpu_cores: 1,
        min_memory_gib: 4,
        max_cpu_cores: 1,
        max_memory_gib: 4,
        idle_timeout_minutes: 0
      })
    )
    return cluster.id
  }).pipe(Effect.orDie)

/** Waits in real time (the sampler's database work is real I/O) until `condition` holds. */
export const eventually = <R>(
  condition: Effect.Effect<boolean, never, R>,
  attempts = 400
): Effect.Effect<void, never, R> =>
  Effect.flatMap(condition, (holds) =>
    holds
      ? Effect.void
      : attempts === 0
        ? Effect.die("condition not reached in time")
        : Effect.zipRight(
            TestServices.provideLive(Effect.sleep("25 millis")),
            eventually(condition, attempts - 1)
          )
  )

/** Sampling times stored for a cluster, as ISO strings. */
export const sampleTimes = (cluster: ClusterId) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql<{ sampled_at: Date }>`select distinct sampled_at
      from cluster_metric_samples where cluster_id = ${cluster} order by sampled_at`
    return rows.map((row) => row.sampled_at.toISOString())
  }).pipe(Effect.orDie)
