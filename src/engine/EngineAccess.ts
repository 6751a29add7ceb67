/** How the data plane reports a cluster whose engine it cannot use. */
import { ENGINE_UNREACHABLE, EngineError, EngineUnavailable } from "../../domain/Engine.js"
import type { ClusterPaused } from "../../domain/Errors.js"
import { Unavailable } from "../../domain/Errors.js"

const engineGone = (error: EngineUnavailable) =>
  new Unavailable({
    message: error.message,
    hint: "Retry shortly; GET /v1/clusters shows the cluster's status."
  })

/** A paused cluster as it is; an engine that cannot be reached now as `Unavailable`. */
export const engineAccessError = (error: EngineUnavailable | ClusterPaused) =>
  error._tag === "ClusterPaused" ? error : engineGone(error)

/**
 * A defect that is the engine's absence rather than a bug: a worker lost mid-request, or
 * a ClickHouse server that could not be reached. Every transport answers it as
 * `Unavailable`, so its caller retries.
 */
export const lostEngine = (defect: unknown): Unavailable | undefined => {
  if (defect instanceof EngineUnavailable) return engineGone(defect)
  if (defect instanceof EngineError && defect.type === ENGINE_UNREACHABLE) {
    return new Unavailable({ message: defect.message, hint: "Retry shortly." })
  }
  return undefined
}
