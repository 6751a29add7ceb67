/**
 * `HttpApiBuilder.serve`, with requests and handlers on contexts of their own. The server runs
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

/** Only `services` of `all`, and the platform's and Effect's. */
const onlyKept = (
  all: Context.Context<never>,
  services: ReadonlyArray<{ readonly key: string }>
): Context.Context<never> => {
  const kept = new Set(services.map((tag) => tag.key))
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
        Layer.provide(Layer.succeedContext(onlyKept(all, readPerRequest)))
      )
    })
  ).pipe(Layer.provide([HttpApiBuilder.Router.Live, HttpApiBuilder.Middleware.layer]))

/**
 * `groups` built on only `services` of the context they are given (and the platform's and
 * Effect's), with the program's memo map, so a layer shared by reference is still built
 * once. HttpApi keeps the context a group of handlers was built on and merges it into
 * each of its requests' (`HttpApiBuilder.group`): every request copied all ~80 of the
 * program's services, and so did every service a handler provides (in a profile of the
 * PromQL compliance round, the copies of contexts fell from 89 to 59 ms of 1.9 s busy).
 * The type asks for every service the groups need.
 */
export const groupsOn =
  <const Services extends ReadonlyArray<Context.Tag<any, any>>>(...services: Services) =>
  <A, E, R extends Context.Tag.Identifier<Services[number]>>(groups: Layer.Layer<A, E, R>) =>
    Layer.scopedContext(
      Effect.gen(function* () {
        const all = yield* Effect.context<Context.Tag.Identifier<Services[number]>>()
        const memoMap = yield* Layer.CurrentMemoMap
        const scope = yield* Effect.scope
        return yield* Layer.buildWithMemoMap(groups, memoMap, scope).pipe(
          Effect.provide(onlyKept(all, services))
        )
      })
    )
