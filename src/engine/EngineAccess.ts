/** How the data plane reports a cluster whose engine it cannot use. */
import type { ClusterPaused, EngineUnavailable } from "../../domain/Engine.js"
import { Conflict, Unavailable } from "../../domain/Errors.js"

export const engineAccessError = (error: EngineUnavailable | ClusterPaused) =>
  error._tag === "ClusterPaused"
    ? new Conflict({ message: error.message, hint: error.hint, code: "cluster_paused" })
    : new Unavailable({
        message: error.message,
        hint: "Retry shortly; GET /v1/clusters shows the cluster's status."
      })
