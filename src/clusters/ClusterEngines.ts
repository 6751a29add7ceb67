/**
 * `Engines` for the data plane: the engine of a cluster as the provisioner runs it,
 * started on first use.
 */
import { Effect, Layer } from "effect"
import { Engines } from "../../domain/Engine.js"
import type { ClusterId } from "../../domain/Ids.js"
import { EngineSpec, Provisioner } from "../../domain/Provisioner.js"

const GIB = 1024 ** 3

export const layer = Layer.effect(
  Engines,
  Effect.gen(function* () {
    const provisioner = yield* Provisioner
    const forCluster = Effect.fn("Engines.forCluster")(function* (cluster: ClusterId) {
      return yield* provisioner.engine(cluster).pipe(
        Effect.orElse(() =>
          Effect.zipRight(
            provisioner.start(
              new EngineSpec({
                clusterId: cluster,
                cpuCores: 2,
                memoryBytes: 8 * GIB,
                replicas: 1
              })
            ),
            provisioner.engine(cluster)
          )
        )
      )
    })
    return Engines.of({ forCluster })
  })
)
