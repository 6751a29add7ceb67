/**
 * Answers a cluster's metric series over a time window, from the samples the sampler
 * stored. Long windows are bucketed so that a series never exceeds `MAX_POINTS` points
 * per replica: buckets have a round length (1 min … 1 day), are counted from the window's
 * start, and each point carries its bucket's start; query counts are summed within a
 * bucket, CPU and memory take their maximum. Times without samples (engine not running)
 * have no point: nothing is zero-filled.
 */
import { Clock, Effect, type Option } from "effect"
import { MetricPoint, MetricSeries } from "../../../domain/api/ClusterModels.js"
import { BadRequest } from "../../../domain/Errors.js"
import type { ClusterId } from "../../../domain/Ids.js"
import { SluiceConfig } from "../../config/SluiceConfig.js"
import type { MetricDefinition } from "./MetricCatalog.js"
import { selectMetrics } from "./MetricSelection.js"
import type { ReplicaPoint } from "./MetricsStore.js"
import { MetricsStore } from "./MetricsStore.js"

export const MAX_POINTS = 500

const ROUND_STEPS = [60, 120, 300, 600, 900, 1800, 3600, 7200, 10_800, 21_600, 43_200, 86_400]

/** Seconds per point for a window, or undefined when every sample fits as it is. */
export const bucketSeconds = (windowSeconds: number, intervalSeconds: number) => {
  if (windowSeconds / intervalSeconds <= MAX_POINTS) return undefined
  const needed = Math.max(intervalSeconds, windowSeconds / MAX_POINTS)
  return ROUND_STEPS.find((step) => step >= needed) ?? Math.ceil(needed / 86_400) * 86_400
}

const seriesOf = (metric: MetricDefinition, points: ReadonlyArray<ReplicaPoint>) => {
  const series = (values: ReadonlyArray<MetricPoint>) =>
    new MetricSeries({
      name: metric.name,
      label: metric.label,
      description: metric.description,
      unit: metric.unit,
      aggregation: metric.aggregation,
      scope: metric.scope,
      source: metric.source,
      points: values
    })
  if (metric.scope === "replica")
    return series(
      points.map(
        (point) =>
          new MetricPoint({
            time: new Date(point.timeMs).toISOString(),
            value: metric.value(point),
            replica: point.replica
          })
      )
    )
  // Points arrive ordered by time, so the map keeps that order.
  const totals = new Map<number, number>()
  for (const point of points)
    totals.set(point.timeMs, (totals.get(point.timeMs) ?? 0) + metric.value(point))
  return series(
    Array.from(
      totals,
      ([timeMs, value]) => new MetricPoint({ time: new Date(timeMs).toISOString(), value })
    )
  )
}

export interface MetricsWindow {
  readonly start: Date
  readonly end: Date
}

export class ClusterMetricsQuery extends Effect.Service<ClusterMetricsQuery>()(
  "sluice/ClusterMetricsQuery",
  {
    effect: Effect.gen(function* () {
      const { metricsIntervalSeconds, metricsRetentionDays } = yield* SluiceConfig
      const store = yield* MetricsStore
      const series = Effect.fn("ClusterMetricsQuery.series")(function* (
        cluster: ClusterId,
        window: MetricsWindow,
        names: Option.Option<ReadonlyArray<string>>
      ) {
        const { start, end } = window
        if (end.getTime() < start.getTime())
          return yield* new BadRequest({
            message: "end_time is before start_time.",
            hint: "Pass start_time <= end_time, both ISO 8601 timestamps."
          })
        const oldest = (yield* Clock.currentTimeMillis) - metricsRetentionDays * 86_400_000
        if (start.getTime() < oldest)
          return yield* new BadRequest({
            message: `start_time is further back than the ${metricsRetentionDays}-day metrics retention.`,
            hint: `Pass a start_time at or after ${new Date(oldest).toISOString()}.`
          })
        const metrics = yield* selectMetrics(names)
        const step = bucketSeconds((end.getTime() - start.getTime()) / 1000, metricsIntervalSeconds)
        const points = yield* store.points(cluster, start, end, step)
        return metrics.map((metric) => seriesOf(metric, points))
      })
      return { series }
    }),
    dependencies: [MetricsStore.Default]
  }
) {}
