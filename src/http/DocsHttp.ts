/** `GET /v1/docs`: the guide, made once from the contract when the server starts. */
import { HttpApiBuilder, OpenApi } from "@effect/platform"
import { Effect } from "effect"
import { SluiceApi } from "../../domain/Api.js"
import { apiGuide } from "./ApiGuide.js"

export const DocsHttpLive = HttpApiBuilder.group(SluiceApi, "docs", (handlers) => {
  const guide = apiGuide(OpenApi.fromApi(SluiceApi))
  return handlers.handle("docs", () => Effect.succeed(guide))
})
