/**
 * At start, after bootstrap: start the engines of clusters that should run and finish
 * transitions a previous process left half done.
 */
import { Effect, Layer } from "effect"
import { FirstStart } from "../bootstrap/FirstStart.js"
import { ClusterLifecycle } from "./ClusterLifecycle.js"

export const ClusterBootLive = Layer.effectDiscard(
  Effect.zipRight(
    FirstStart,
    Effect.flatMap(ClusterLifecycle, (lifecycle) => lifecycle.boot)
  )
)
