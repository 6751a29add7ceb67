/**
 * Automatic idling: once a minute (on the Effect `Clock`), every ready cluster with an
 * idle timeout whose last data request is older than it is paused as `idle`; the next
 * data request wakes it (`ClusterEngines`). One node sweeps (its lease), counting the
 * requests every node served (recorded in the control plane by `ClusterLifecycle.touch`).
 */
import { Clock, Effect, Layer, Option } from "effect"
import { ClusterLifecycle } from "../../domain/ClusterLifecycle.js"
import { Leases } from "../store/Leases.js"
import { ClustersRepo } from "./ClustersRepo.js"

const SWEEP_EVERY = "1 minute"

/**
 * One look at every cluster: pauses those idle for their timeout. `since` stands for the
 * last activity of a cluster that has had none since the service started.
 */
export const idleSweep = (since: number) =>
  Effect.gen(function* () {
    const lifecycle = yield* ClusterLifecycle
    const repo = yield* ClustersRepo
    const now = yield* Clock.currentTimeMillis
    const elsewhere = yield* repo.activity()
    for (const row of yield* repo.listAll()) {
      if (row.phase !== "ready" || row.idle_timeout_minutes === 0) continue
      const here = Option.getOrElse(yield* lifecycle.lastActivity(row.id), () => since)
      const last = Math.max(here, elsewhere.get(row.id) ?? here)
      if (now - last >= row.idle_timeout_minutes * 60_000) {
        yield* Effect.ignore(lifecycle.pause(row, "idle"))
      }
    }
  }).pipe(Effect.withSpan("Idling.sweep"))

export const IdlingLive = Layer.scopedDiscard(
  Effect.gen(function* () {
    const since = yield* Clock.currentTimeMillis
    yield* (yield* Leases).run(
      "idling",
      Effect.forever(Effect.zipRight(Effect.sleep(SWEEP_EVERY), Effect.ignore(idleSweep(since))))
    )
  })
)
