/**
 * Samples every running cluster's engine each `SLUICE_METRICS_INTERVAL_SECONDS` and
 * deletes samples older than `SLUICE_METRICS_RETENTION_DAYS`, in the background. Time
 * comes from Effect's `Clock`, so tests drive it with `TestClock`.
 */
import { Clock, Duration, Effect, Layer, Schedule } from "effect"
import type { ClusterId } from "../../../domain/Ids.js"
import { Provisioner } from "../../../domain/Provisioner.js"
import { SluiceConfig } from "../../config/SluiceConfig.js"
import { Leases } from "../../store/Leases.js"
import { ClustersRepo } from "../ClustersRepo.js"
import { MetricsStore } from "./MetricsStore.js"

export interface SamplerSettings {
  readonly intervalSeconds: number
  readonly retentionDays: number
}

/**
 * One round: every running cluster sampled at the same instant, then the expired samples
 * deleted. A cluster whose sampling fails or takes longer than an interval (a stuck
 * engine must not stall every later round) is logged and skipped; the others still count.
 */
export const sampleOnce = (settings: SamplerSettings) =>
  Effect.gen(function* () {
    const provisioner = yield* Provisioner
    const clusters = yield* ClustersRepo
    const store = yield* MetricsStore
    const now = new Date(yield* Clock.currentTimeMillis)
    const sampleCluster = (cluster: ClusterId) =>
      provisioner.sample(cluster).pipe(
        Effect.timeout(Duration.seconds(settings.intervalSeconds)),
        Effect.flatMap((samples) => store.record(cluster, now, samples)),
        Effect.catchAllCause((cause) =>
          Effect.logWarning("cluster metrics sampling failed", cause).pipe(
            Effect.annotateLogs("cluster", cluster)
          )
        )
      )
    yield* Effect.forEach(yield* clusters.listRunning(), sampleCluster, {
      concurrency: 4,
      discard: true
    })
    yield* store.prune(now, settings.retentionDays)
  }).pipe(Effect.withSpan("MetricsSampler.sampleOnce"))

/**
 * Runs `round` every `intervalSeconds` (a fixed cadence: a slow round does not shift the
 * next), the first one interval after start, so an engine's first reading averages its
 * CPU over a whole interval; forever: a failed round is logged and the next runs on time.
 */
export const everyInterval = <E, R>(round: Effect.Effect<void, E, R>, intervalSeconds: number) =>
  round.pipe(
    Effect.catchAllCause((cause) => Effect.logWarning("cluster metrics round failed", cause)),
    Effect.repeat(Schedule.fixed(Duration.seconds(intervalSeconds))),
    Effect.delay(Duration.seconds(intervalSeconds))
  )

export const sampleForever = (settings: SamplerSettings) =>
  everyInterval(sampleOnce(settings), settings.intervalSeconds)

export const MetricsSamplerLive = Layer.scopedDiscard(
  Effect.gen(function* () {
    const config = yield* SluiceConfig
    yield* (yield* Leases).run(
      "cluster-metrics",
      sampleForever({
        intervalSeconds: config.metricsIntervalSeconds,
        retentionDays: config.metricsRetentionDays
      })
    )
  })
)
