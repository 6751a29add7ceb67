import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { SluiceApi } from "../../domain/Api.js"
import { Health } from "../../domain/api/HealthApi.js"

export const HealthHttpLive = HttpApiBuilder.group(SluiceApi, "health", (handlers) =>
  handlers.handle("health", () => Effect.succeed(new Health({ status: "ok" })))
)
