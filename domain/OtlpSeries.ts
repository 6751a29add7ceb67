/**
 * OTLP metrics as Prometheus series: the otlp-app hands every metrics
 * export here after storing its rows, and when the metrics-app is installed on the same
 * cluster they are also stored as series PromQL reads.
 */
import { Context } from "effect"
import type { Effect } from "effect"
import type { ClusterScope } from "./Authorization.js"
import type { DatabaseName } from "./Ids.js"
import type { OtlpMetricsRequest } from "./OtlpMetricsModel.js"

export class OtlpSeries extends Context.Tag("sluice/OtlpSeries")<
  OtlpSeries,
  {
    /** Nothing when the cluster has no metrics-app; the series otherwise. */
    readonly store: (
      scope: ClusterScope,
      database: DatabaseName,
      request: OtlpMetricsRequest
    ) => Effect.Effect<void>
  }
>() {}
