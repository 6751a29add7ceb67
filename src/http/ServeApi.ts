/**
 * `HttpApiBuilder.serve`, with requests and handlers on contexts of their own. The server runs
 * each request on the context it was started in, and a request adds to it ~22 times (its
 * request, caller, span, scopes, middlewares), each addition copying the whole context.
 * The handlers took the capabilities they call when they were built, so a request needs
 * only the platform's and Effect's services and the few of sluice's it reads while it
 * runs (`readPerRequest`), not all ~77 of the program (what that saves a small query:
 * test/bench/README.md).
 */
import { HttpApiBuilder, HttpServer, HttpServerRequest } from "@effect/platform"
import type { HttpApp } from "@effect/platform"
import { Context, Effect, Layer } from "effect"
import type { Scope } from "effect"

/**
 * Only `services` of `all`, and the platform's and Effect's. Typed as `all`: the callers'
 * types say which services what runs on it may need.
 */
const onlyKept = <R>(
  all: Context.Context<R>,
  services: ReadonlyArray<{ readonly key: string }>
): Context.Context<R> => {
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
  Layer.scopedDiscard(
    Effect.gen(function* () {
      const app = yield* HttpApiBuilder.httpApp
      const server = yield* HttpServer.HttpServer
      // The server starts each request from the context `serve` runs in. That context is
      // replaced, not added to: `Effect.provide` and `Layer.provide` merge what they are
      // given into the context around them, so filtering through them kept everything.
      yield* server
        .serve(app as HttpApp.Default, middleware)
        .pipe(
          Effect.mapInputContext(
            (all: Context.Context<Scope.Scope | Exclude<R, HttpServerRequest.HttpServerRequest>>) =>
              onlyKept(all, readPerRequest)
          )
        )
    })
  ).pipe(Layer.provide([HttpApiBuilder.Router.Live, HttpApiBuilder.Middleware.layer]))

/**
 * `groups` built on only `services` of the context they are given (and the platform's and
 * Effect's), with the program's memo map, so a layer shared by reference is still built
 * once. HttpApi keeps the context a group of handlers was built on and merges it into
 * each of its requests' (`HttpApiBuilder.group`): every request copied all ~80 of the
 * program's services, and so did every service a handler provides. The type asks for
 * every service the groups need.
 */
export const groupsOn =
  <const Services extends ReadonlyArray<Context.Tag<any, any>>>(...services: Services) =>
  <A, E, R extends Context.Tag.Identifier<Services[number]>>(groups: Layer.Layer<A, E, R>) =>
    Layer.scopedContext(
      Effect.gen(function* () {
        const memoMap = yield* Layer.CurrentMemoMap
        const scope = yield* Effect.scope
        // Replaced, not merged into (see `serveApi`).
        return yield* Layer.buildWithMemoMap(groups, memoMap, scope).pipe(
          Effect.mapInputContext(
            (context: Context.Context<Context.Tag.Identifier<Services[number]>>) =>
              onlyKept(context, services) as Context.Context<R>
          )
        )
      })
    )
