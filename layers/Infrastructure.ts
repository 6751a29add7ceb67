/**
 * The control plane and the provisioner of cluster engines, each embedded unless its `SLUICE_*` setting points
 * at an external one. Either half can be external without the other. The metrics-app's
 * write log is in the data directory either way, which is made and checked first.
 */
import { Effect, Layer, Option } from "effect"
import * as DataDirectory from "../src/config/DataDirectory.js"
import { SluiceConfig } from "../src/config/SluiceConfig.js"
import * as FileWriteLog from "../src/prometheus/writelog/FileWriteLog.js"
import { EmbeddedControlPlaneLive, EmbeddedProvisionerLive } from "./Embedded.js"
import { ExternalControlPlaneLive, ExternalProvisionerLive } from "./External.js"

export const InfrastructureLive = Layer.unwrapEffect(
  Effect.gen(function* () {
    const config = yield* SluiceConfig
    yield* DataDirectory.prepare(config.dataDir)
    return Layer.mergeAll(
      Option.match(config.databaseUrl, {
        onNone: () => EmbeddedControlPlaneLive,
        onSome: ExternalControlPlaneLive
      }),
      Option.match(config.clickhouse, {
        onNone: () => EmbeddedProvisionerLive,
        onSome: ExternalProvisionerLive
      }),
      FileWriteLog.layer
    )
  })
)
