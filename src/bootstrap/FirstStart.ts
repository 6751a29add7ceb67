/** `FirstStart`: the outcome of running `Bootstrap` once, while the layer is built. */
import { Effect, Layer } from "effect"
import { FirstStart } from "../../domain/FirstStart.js"
import { Bootstrap } from "./Bootstrap.js"

export const FirstStartLive = Layer.effect(
  FirstStart,
  Effect.flatMap(Bootstrap, (bootstrap) => bootstrap.run())
)
