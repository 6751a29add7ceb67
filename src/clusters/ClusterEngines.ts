/**
 * `Engines` for the data plane: the engine of a cluster, as its lifecycle allows. A
 * ready cluster's engine is used at once (started if the service restarted); a cluster
 * idled for inactivity is resumed and waited for (bounded); one an admin paused is a
 * `ClusterPaused`. Each use counts as activity for idling.
 */
import { Clock, Duration, Effect, Layer, Option } from "effect"
import { Engines, EngineUnavailable } from "../../domain/Engine.js"
import { ClusterPaused } from "../../domain/Errors.js"
import type { AnalyticalEngine } from "../../domain/Engine.js"
import type { ClusterId } from "../../domain/Ids.js"
import { Provisioner } from "../../domain/Provisioner.js"
import type { ClusterState } from "../../domain/ClusterLifecycle.js"
import { ClusterLifecycle } from "../../domain/ClusterLifecycle.js"
import { ClustersRepo } from "./ClustersRepo.js"

const WAKE_TIMEOUT = Duration.seconds(60)
const POLL = Duration.millis(100)

const paused = (id: ClusterId, state: ClusterState) =>
  new ClusterPaused({
    message: `Cluster '${state.name}' is paused.`,
    hint: `An organization admin can resume it: POST /v1/clusters/${id}/resume?organization=<name>.`
  })

const gone = new EngineUnavailable({ message: "The cluster no longer exists." })

export const layer = Layer.effect(
  Engines,
  Effect.gen(function* () {
    const lifecycle = yield* ClusterLifecycle
    const provisioner = yield* Provisioner
    const repo = yield* ClustersRepo
    // Waiting for a wake is real time even under a test's `TestClock`.
    const liveClock = Clock.make()

    /** One look at the cluster: its engine, a failure, or `None` to look again shortly. */
    const attempt = (id: ClusterId) =>
      Effect.gen(function* () {
        const state = yield* lifecycle.stateOf(id)
        if (Option.isNone(state)) return yield* gone
        const { phase, pausedBy } = state.value
        switch (phase) {
          case "ready": {
            const running = yield* Effect.option(provisioner.engine(id))
            if (Option.isSome(running)) return running
            yield* Effect.ignore(lifecycle.ensureStarted(id))
            return Option.none<AnalyticalEngine>()
          }
          case "paused":
          case "pausing":
            if (pausedBy !== "idle") return yield* paused(id, state.value)
            if (phase === "paused") {
              const row = yield* repo.findById(id)
              if (Option.isSome(row)) yield* Effect.ignore(lifecycle.resume(row.value))
            }
            return Option.none<AnalyticalEngine>()
          case "deleting":
            return yield* gone
          default:
            return Option.none<AnalyticalEngine>()
        }
      })

    const waitForEngine = Effect.fn("Engines.waitForEngine")(function* (cluster: ClusterId) {
      const deadline = (yield* Clock.currentTimeMillis) + Duration.toMillis(WAKE_TIMEOUT)
      while (true) {
        const engine = yield* attempt(cluster)
        if (Option.isSome(engine)) return engine.value
        if ((yield* Clock.currentTimeMillis) > deadline) {
          return yield* new EngineUnavailable({
            message: "The cluster's engine did not become ready in time."
          })
        }
        yield* Effect.sleep(POLL)
      }
    }, Effect.withClock(liveClock))

    // Activity is stamped on the caller's clock: that is the clock idling compares with.
    // Every data request asks, so the common case (ready, engine up) is one look with no
    // span; only waiting (a wake, a restart) is traced.
    const forCluster = (cluster: ClusterId) =>
      Effect.zipRight(
        lifecycle.touch(cluster),
        Effect.flatMap(attempt(cluster), (engine) =>
          Option.isSome(engine) ? Effect.succeed(engine.value) : waitForEngine(cluster)
        )
      )

    return Engines.of({ forCluster })
  })
)
