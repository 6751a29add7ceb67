/**
 * The outcome of bootstrapping at start-up: the one-time credentials on a first start,
 * `None` afterwards. Built before the HTTP server listens, so no request sees an empty
 * control plane.
 */
import { Context, Effect, Layer } from "effect"
import type { Option } from "effect"
import { Bootstrap } from "./Bootstrap.js"
import type { BootstrapCredentials } from "./Bootstrap.js"

export class FirstStart extends Context.Tag("sluice/FirstStart")<
  FirstStart,
  Option.Option<BootstrapCredentials>
>() {
  static readonly layer = Layer.effect(
    FirstStart,
    Effect.flatMap(Bootstrap, (bootstrap) => bootstrap.run())
  )
}
