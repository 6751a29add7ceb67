/**
 * The control plane and the engines, each embedded unless its `SLUICE_*` setting points
 * at an external one. Either half can be external without the other.
 */
import { Effect, Layer, Option } from "effect"
import { SluiceConfig } from "../src/config/SluiceConfig.js"
import { EmbeddedControlPlaneLive, EmbeddedEnginesLive } from "./Embedded.js"
import { ExternalControlPlaneLive, ExternalEnginesLive } from "./External.js"

export const InfrastructureLive = Layer.unwrapEffect(
  Effect.map(SluiceConfig, (config) =>
    Layer.merge(
      Option.match(config.databaseUrl, {
        onNone: () => EmbeddedControlPlaneLive,
        onSome: ExternalControlPlaneLive
      }),
      Option.match(config.clickhouse, {
        onNone: () => EmbeddedEnginesLive,
        onSome: ExternalEnginesLive
      })
    )
  )
)
