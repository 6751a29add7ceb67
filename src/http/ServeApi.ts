/**
 * `HttpApiBuilder.serve`, with requests run on a context of their own. The server runs
 * each request on the context it was started in, and a request adds to it ~22 times (its
 * request, caller, span, scopes, middlewares), each addition copying the whole context.
 * The handlers took the capabilities they call when they were built, so a request needs
 * only the platform's and Effect's services and the few of sluice's it reads while it
 * runs (`readPerRequest`), not all ~77 of the program. Measured alone, 33 such additions
 * cost 490–600 µs over 80 services against 245–285 µs over 10.
 */
import { HttpApiBuilder, HttpServer } from "@effect/platform"
import type { HttpApp } from "@effect/platform"
import { Context, Effect, Layer } from "effect"

const requestContext = (
  all: Context.Context<never>,
  readPerRequest: ReadonlyArray<{ readonly key: string }>
): Context.Context<never> => {
  const kept = new Set(readPerRequest.map((tag) => tag.key))
  return Context.unsafeMake(
    new Map(
      [...all.unsafeMap].filter(
        ([key]) => kept.has(key) || key.startsWith("@effect/") || key.startsWith("effect/")
      )
    )
  )
}

export const serveApi = <R>(
  middleware: (app: HttpApp.Default) => HttpApp.Default<never, R>,
  readPerRequest: ReadonlyArray<{ readonly key: string }>
) =>
  Layer.unwrapEffect(
    Effect.gen(function* () {
      const app = yield* HttpApiBuilder.httpApp
      const all = yield* Effect.context<never>()
      // The router's own services (the request, its route) come with each request from
      // the server, as `HttpApiBuilder.serve` types them.
      return HttpServer.serve(app as HttpApp.Default, middleware).pipe(
        Layer.provide(Layer.succeedContext(requestContext(all, readPerRequest)))
      )
    })
  ).pipe(Layer.provide([HttpApiBuilder.Router.Live, HttpApiBuilder.Middleware.layer]))
