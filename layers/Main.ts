/** The program `npm start` runs: the server on the infrastructure the environment picks. */
import { Layer } from "effect"
import { SluiceConfig } from "../src/config/SluiceConfig.js"
import { InfrastructureLive } from "./Infrastructure.js"
import { ServerLive } from "./Server.js"

export const MainLive = ServerLive.pipe(
  Layer.provide(InfrastructureLive),
  Layer.provide(SluiceConfig.layer)
)
