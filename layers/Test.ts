/**
 * The whole service, embedded, on random loopback ports with its data in `dataDir`: what
 * the black-box HTTP suites run against. `env` adds or overrides `SLUICE_*` settings
 * (e.g. an OIDC issuer served by the test). Every service stays reachable in the built
 * context, for tests that arrange state behind the API.
 */
import { ConfigProvider, Layer } from "effect"
import { SluiceConfig } from "../src/config/SluiceConfig.js"
import { InfrastructureLive } from "./Infrastructure.js"
import { ServiceLive } from "./Main.js"

export const testConfig = (dataDir: string, env: Readonly<Record<string, string>> = {}) =>
  Layer.setConfigProvider(
    ConfigProvider.fromMap(
      new Map(
        Object.entries({
          SLUICE_DATA_DIR: dataDir,
          SLUICE_PORT: "0",
          SLUICE_GRPC_PORT: "0",
          SLUICE_HOST: "127.0.0.1",
          ...env
        })
      )
    )
  )

export const testServerLive = (options: {
  readonly dataDir: string
  readonly env?: Readonly<Record<string, string>>
}) =>
  ServiceLive.pipe(
    Layer.provideMerge(InfrastructureLive),
    Layer.provide(SluiceConfig.layer),
    Layer.provide(testConfig(options.dataDir, options.env))
  )
