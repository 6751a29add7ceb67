/**
 * What a request's fiber can reach: `serveApi` starts requests on only the services named
 * for them, and `groupsOn` builds handlers on only theirs. Each copy of a context copies
 * every service in it, and a request copies its context some twenty times, so a service
 * left in by mistake costs every request; the filter once kept everything without anyone
 * seeing it (`Layer.provide` and `Effect.provide` add to the context around them).
 */
import {
  HttpApi,
  HttpApiBuilder,
  HttpApiEndpoint,
  HttpApiGroup,
  HttpClient
} from "@effect/platform"
import { NodeHttpServer } from "@effect/platform-node"
import { describe, expect, it } from "@effect/vitest"
import { Context, Effect, Layer, Schema } from "effect"
import { groupsOn, serveApi } from "../../src/http/ServeApi.js"

class ForHandlers extends Context.Tag("sluice/test/ForHandlers")<ForHandlers, string>() {}
class PerRequest extends Context.Tag("sluice/test/PerRequest")<PerRequest, string>() {}
class Elsewhere extends Context.Tag("sluice/test/Elsewhere")<Elsewhere, string>() {}

const ours = (context: Context.Context<never>) =>
  [...context.unsafeMap.keys()].filter((key) => key.startsWith("sluice/test/")).sort()

const Api = HttpApi.make("t").add(
  HttpApiGroup.make("g").add(
    HttpApiEndpoint.get("seen", "/seen").addSuccess(Schema.Array(Schema.String))
  )
)

const GroupLive = HttpApiBuilder.group(Api, "g", (handlers) =>
  Effect.gen(function* () {
    // The handler's own service, taken when built, as sluice's handlers take capabilities.
    yield* ForHandlers
    return handlers.handle("seen", () => Effect.map(Effect.context<never>(), ours))
  })
).pipe(groupsOn(ForHandlers))

/** What the middleware, around every request, could reach. */
const seenByMiddleware: Array<ReadonlyArray<string>> = []

const ServerLive = serveApi(
  (app) =>
    Effect.flatMap(Effect.context<never>(), (context) => {
      seenByMiddleware.push(ours(context))
      return app
    }),
  [PerRequest]
).pipe(
  Layer.provide(HttpApiBuilder.api(Api).pipe(Layer.provide(GroupLive))),
  Layer.provideMerge(NodeHttpServer.layerTest),
  Layer.provide(
    Layer.mergeAll(
      Layer.succeed(ForHandlers, "for handlers"),
      Layer.succeed(PerRequest, "per request"),
      Layer.succeed(Elsewhere, "elsewhere")
    )
  )
)

describe("serveApi and groupsOn", () => {
  it.effect("a request reaches only its own services and its handler's", () =>
    Effect.gen(function* () {
      const client = yield* HttpClient.HttpClient
      const reply = yield* client.get("/seen")
      expect(reply.status).toBe(200)
      // The handler runs on the request's context with its group's build context merged in.
      expect(yield* reply.json).toEqual(["sluice/test/ForHandlers", "sluice/test/PerRequest"])
      expect(seenByMiddleware.at(-1)).toEqual(["sluice/test/PerRequest"])
    }).pipe(Effect.provide(ServerLive))
  )
})
