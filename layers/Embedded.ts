/**
 * Embedded: the PGlite control plane, and each cluster's chDB engine in its own worker
 * process, all under the data dir.
 */
import { Effect, Layer } from "effect"
import { SluiceConfig } from "../src/config/SluiceConfig.js"
import { ControlPlaneEvents } from "../src/events/ControlPlaneEvents.js"
import * as EmbeddedProvisioner from "../src/provisioner/EmbeddedProvisioner.js"
import * as ControlPlaneSql from "../src/store/ControlPlaneSql.js"

/** One process on its control plane: its changes concern no other. */
export const EmbeddedControlPlaneLive = Layer.unwrapEffect(
  Effect.map(SluiceConfig, ({ dataDir }) =>
    Layer.merge(ControlPlaneSql.embedded({ dataDir }), ControlPlaneEvents.local)
  )
)

export const EmbeddedProvisionerLive = Layer.unwrapEffect(
  Effect.map(SluiceConfig, ({ dataDir }) => EmbeddedProvisioner.layer({ dataDir }))
)
