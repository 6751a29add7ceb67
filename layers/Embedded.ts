/** Embedded engines: PGlite control plane and in-process chDB, both under the data dir. */
import { Effect, Layer } from "effect"
import { SluiceConfig } from "../src/config/SluiceConfig.js"
import * as ChdbEngine from "../src/engine/ChdbEngine.js"
import * as ControlPlaneSql from "../src/store/ControlPlaneSql.js"

export const EmbeddedControlPlaneLive = Layer.unwrapEffect(
  Effect.map(SluiceConfig, ({ dataDir }) => ControlPlaneSql.embedded({ dataDir }))
)

export const EmbeddedEnginesLive = Layer.unwrapEffect(
  Effect.map(SluiceConfig, ({ dataDir }) => ChdbEngine.layer({ dataDir }))
)
