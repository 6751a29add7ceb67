/** How the data plane reports a cluster whose engine it cannot use. */
import type { EngineUnavailable } from "../../domain/Engine.js"
import type { ClusterPaused } from "../../domain/Errors.js"
import { Unavailable } from "../../domain/Errors.js"

/** A paused cluster as it is; an engine that cannot be reached now as `Unavailable`. */
export const engineAccessError = (error: EngineUnavailable | ClusterPaused) =>
  error._tag === "ClusterPaused"
    ? error
    : new Unavailable({
        message: error.message,
        hint: "Retry shortly; GET /v1/clusters shows the cluster's status."
      })
