/** `ClusterUsage` over the sampled metrics (`ClusterMetricsQuery`). */
import { DateTime, Effect, Layer } from "effect"
import { ClusterMetrics } from "../../../domain/api/ClusterModels.js"
import { ClusterUsage } from "../../../domain/ClusterUsage.js"
import { ClusterMetricsQuery } from "./ClusterMetricsQuery.js"
import { parseMetricsParam } from "./MetricSelection.js"

export const ClusterUsageLive = Layer.effect(
  ClusterUsage,
  Effect.map(ClusterMetricsQuery, (query) =>
    ClusterUsage.of({
      metrics: (cluster, request) =>
        Effect.map(
          query.series(
            cluster.id,
            { start: DateTime.toDate(request.start_time), end: DateTime.toDate(request.end_time) },
            parseMetricsParam(request.metrics)
          ),
          (metrics) =>
            new ClusterMetrics({ cluster: { id: cluster.id, name: cluster.name }, metrics })
        )
    })
  )
)
