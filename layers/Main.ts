/**
 * The program `npm start` runs: both transports and the start-up work over the
 * capabilities, on the infrastructure the environment picks.
 */
import { Layer } from "effect"
import { SluiceConfig } from "../src/config/SluiceConfig.js"
import { FirstStartSecretsLive } from "../src/http/Announce.js"
import * as LogLines from "../src/runtime/LogLines.js"
import { CapabilitiesLive } from "./Capabilities.js"
import { GrpcLive } from "./Grpc.js"
import { HttpLive } from "./Http.js"
import { InfrastructureLive } from "./Infrastructure.js"
import { StartupLive } from "./Startup.js"

/**
 * Transports and start-up over the capabilities; each transport can be used alone. The
 * service's log names causes without their stack traces (`LogLines`).
 */
export const ServiceLive = Layer.mergeAll(HttpLive, GrpcLive).pipe(
  // The servers listen once bootstrap is done and its secrets are shown: a start that
  // fails to listen must not take them along.
  Layer.provideMerge(FirstStartSecretsLive),
  Layer.provideMerge(StartupLive),
  Layer.provideMerge(CapabilitiesLive),
  Layer.provide(LogLines.layer)
)

/**
 * Every capability and the start-up work, embedded unless `SLUICE_*` settings point
 * elsewhere, without any transport: what a team's own Effect program provides (see the
 * README's "Embedding").
 */
export const EmbeddedLive = StartupLive.pipe(
  Layer.provideMerge(CapabilitiesLive),
  Layer.provide(InfrastructureLive),
  Layer.provide(SluiceConfig.layer)
)

export const MainLive = ServiceLive.pipe(
  Layer.provide(InfrastructureLive),
  Layer.provide(SluiceConfig.layer)
)
