/**
 * The whole server, embedded, on a random loopback port with its data in `dataDir`:
 * what the black-box HTTP suites run against. `env` adds or overrides `SLUICE_*`
 * settings (e.g. an OIDC issuer served by the test).
 */
import { ConfigProvider, Layer } from "effect"
import { SluiceConfig } from "../src/config/SluiceConfig.js"
import { OtlpGrpcServerLive } from "../src/otlp/grpc/OtlpGrpcServer.js"
import { InfrastructureLive } from "./Infrastructure.js"
import { ServerLive } from "./Server.js"

export const testServerLive = (options: {
  readonly dataDir: string
  readonly env?: Readonly<Record<string, string>>
}) =>
  OtlpGrpcServerLive.pipe(
    Layer.provideMerge(ServerLive),
    Layer.provideMerge(InfrastructureLive),
    Layer.provide(SluiceConfig.layer),
    Layer.provide(
      Layer.setConfigProvider(
        ConfigProvider.fromMap(
          new Map(
            Object.entries({
              SLUICE_DATA_DIR: options.dataDir,
              SLUICE_PORT: "0",
              SLUICE_GRPC_PORT: "0",
              SLUICE_HOST: "127.0.0.1",
              ...options.env
            })
          )
        )
      )
    )
  )
