/**
 * The ClickHouse-server provisioner: clusters are namespaces on one ClickHouse server
 * (or cluster) reached over HTTP. The engine is shared; start and stop only record
 * whether the cluster's namespace may be used.
 */
import { createClient } from "@clickhouse/client"
import { Effect, Layer, Redacted } from "effect"
import { EngineUnavailable } from "../../domain/Engine.js"
import type { ClusterId } from "../../domain/Ids.js"
import { EngineStatus, Provisioner } from "../../domain/Provisioner.js"
import type { EngineSpec } from "../../domain/Provisioner.js"
import * as ClickHouseEngine from "../engine/ClickHouseEngine.js"

export const layer = (options: {
  readonly url: string
  readonly username: string
  readonly password: Redacted.Redacted<string>
}) =>
  Layer.scoped(
    Provisioner,
    Effect.gen(function* () {
      const client = createClient({
        url: options.url,
        username: options.username,
        password: Redacted.value(options.password)
      })
      const engine = yield* ClickHouseEngine.make(client)
      const started = new Set<ClusterId>()
      const notRunning = new EngineUnavailable({ message: "The cluster's engine is not running." })
      return Provisioner.of({
        start: (spec: EngineSpec) => Effect.sync(() => void started.add(spec.clusterId)),
        stop: (cluster) => Effect.sync(() => void started.delete(cluster)),
        destroy: (cluster) => Effect.sync(() => void started.delete(cluster)),
        engine: (cluster) =>
          Effect.suspend(() =>
            started.has(cluster) ? Effect.succeed(engine) : Effect.fail(notRunning)
          ),
        status: (cluster) =>
          Effect.sync(() => new EngineStatus({ running: started.has(cluster), message: null })),
        sample: () => Effect.succeed([])
      })
    })
  )
