/**
 * Compositions for tests and for trying sluice from a program.
 *
 * - `InMemoryLive`: every capability and the start-up work over real engines in this
 *   process and in memory (PGlite, chDB on `:memory:`): no ports, no data directory, no
 *   worker processes. Under `@effect/vitest` it runs on the `TestClock`.
 * - `testServerLive`: the whole service as `npm start` runs it, embedded, on random
 *   loopback ports with its data in `dataDir`: what the black-box HTTP suites run against.
 *
 * `env` adds or overrides `SLUICE_*` settings. Every service stays reachable in the built
 * context, for tests that arrange state behind the API.
 */
import { ConfigProvider, Layer } from "effect"
import { SluiceConfig } from "../src/config/SluiceConfig.js"
import * as ChdbEngine from "../src/engine/ChdbEngine.js"
import { ControlPlaneEvents } from "../src/events/ControlPlaneEvents.js"
import * as MemoryWriteLog from "../src/prometheus/writelog/MemoryWriteLog.js"
import * as ServerProvisioner from "../src/provisioner/ServerProvisioner.js"
import * as ControlPlaneSql from "../src/store/ControlPlaneSql.js"
import { CapabilitiesLive } from "./Capabilities.js"
import { InfrastructureLive } from "./Infrastructure.js"
import { ServiceLive } from "./Main.js"
import { StartupLive } from "./Startup.js"

const settings = (env: Readonly<Record<string, string>>) =>
  Layer.setConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(env))))

/** The control plane and every cluster's engine in this process, in memory. */
export const InMemoryInfrastructureLive = Layer.mergeAll(
  ControlPlaneSql.inMemory,
  ControlPlaneEvents.local,
  MemoryWriteLog.layer,
  // Clusters share the one in-process chDB as namespaces, like clusters on a ClickHouse server.
  ServerProvisioner.layer({
    accessControl: false,
    client: () => ChdbEngine.client(":memory:"),
    statements: ChdbEngine.statementOptions(":memory:")
  })
)

export const InMemoryLive = (env: Readonly<Record<string, string>> = {}) =>
  StartupLive.pipe(
    Layer.provideMerge(CapabilitiesLive),
    Layer.provideMerge(InMemoryInfrastructureLive),
    Layer.provideMerge(SluiceConfig.layer),
    Layer.provide(settings(env))
  )

export const testServerLive = (options: {
  readonly dataDir: string
  readonly env?: Readonly<Record<string, string>>
}) =>
  ServiceLive.pipe(
    Layer.provideMerge(InfrastructureLive),
    Layer.provide(SluiceConfig.layer),
    Layer.provide(
      settings({
        SLUICE_DATA_DIR: options.dataDir,
        SLUICE_PORT: "0",
        SLUICE_GRPC_PORT: "0",
        SLUICE_HOST: "127.0.0.1",
        ...options.env
      })
    )
  )
