/**
 * What a cluster used over time, as sampled while it ran (CPU, memory, queries, …; the
 * catalog's names), kept for the metrics retention (`SLUICE_METRICS_RETENTION_DAYS`).
 */
import { Context } from "effect"
import type { Effect } from "effect"
import type { ClusterMetrics } from "./api/ClusterModels.js"
import type { MetricsParams } from "./api/ClustersApi.js"
import type { BadRequest } from "./Errors.js"
import type { ClusterId } from "./Ids.js"

/** The window and the metrics asked for: `metrics` comma-separated, all when omitted. */
export type ClusterMetricsRequest = Pick<
  typeof MetricsParams.Type,
  "start_time" | "end_time" | "metrics"
>

export class ClusterUsage extends Context.Tag("sluice/ClusterUsage")<
  ClusterUsage,
  {
    /**
     * The metrics over the window, in buckets that fit it. `BadRequest` for a name not in
     * the catalog, an end before the start, or a start before the retention.
     */
    readonly metrics: (
      cluster: { readonly id: ClusterId; readonly name: string },
      request: ClusterMetricsRequest
    ) => Effect.Effect<ClusterMetrics, BadRequest>
  }
>() {}
