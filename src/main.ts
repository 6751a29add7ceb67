/**
 * `npm start`: builds `MainLive` and runs until SIGINT/SIGTERM, then closes the layers
 * in reverse: the HTTP server stops accepting and finishes in-flight requests, then
 * the engines and the control plane close. A bad setting, a data directory that cannot
 * be used or is held by another process, a ClickHouse server that cannot be used as
 * configured, or a port in use stops the start with one line saying why.
 */
import { NodeRuntime } from "@effect/platform-node"
import { ConfigError, Console, Effect, Layer } from "effect"
import { MainLive } from "../layers/Main.js"
import { describeConfigError } from "./config/describeConfigError.js"
import * as IdleMemory from "./runtime/IdleMemory.js"

const refuseToStart = (reason: string) =>
  Console.error(`sluice: cannot start: ${reason}`).pipe(
    Effect.zipRight(Effect.sync(() => process.exit(1)))
  )

Layer.launch(
  Layer.merge(MainLive, IdleMemory.layer).pipe(Layer.ensureRequirementsType<never>())
).pipe(
  Effect.catchIf(ConfigError.isConfigError, (e) =>
    refuseToStart(`invalid configuration: ${describeConfigError(e)}`)
  ),
  Effect.catchTag("DataDirInUse", (e) => refuseToStart(e.message)),
  Effect.catchTag("CannotListen", (e) => refuseToStart(e.message)),
  Effect.catchTag("DataDirUnusable", (e) => refuseToStart(e.message)),
  Effect.catchTag("ClickHouseUnusable", (e) => refuseToStart(e.message)),
  NodeRuntime.runMain({ disableErrorReporting: false })
)
