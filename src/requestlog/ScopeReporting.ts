/**
 * Decorators that report callers and scopes to the request log from the two places that
 * decide them, so every handler's requests are attributed without any handler code.
 * They wrap the `Authenticator` and `Authorization` layers (see layers/Capabilities.ts).
 * The tables a `table:` search finds are reported by `QueryRunner` itself, from the
 * statement it lexes once for its guard and hints.
 */
import { Effect, Layer } from "effect"
import { Authorization } from "../../domain/Authorization.js"
import { Authenticator } from "../../domain/Identity.js"
import { reportCaller, reportScope } from "./RequestAnnotations.js"

export const reportingAuthenticator = <E, R>(live: Layer.Layer<Authenticator, E, R>) =>
  Layer.effect(
    Authenticator,
    Effect.map(Authenticator, (inner) =>
      Authenticator.of({
        authenticate: (credential) => Effect.tap(inner.authenticate(credential), reportCaller)
      })
    )
  ).pipe(Layer.provide(live))

export const reportingAuthorization = <E, R>(live: Layer.Layer<Authorization, E, R>) =>
  Layer.effect(
    Authorization,
    Effect.map(Authorization, (inner) =>
      Authorization.of({
        ...inner,
        organizationScope: (...args) => Effect.tap(inner.organizationScope(...args), reportScope),
        clusterScope: (...args) => Effect.tap(inner.clusterScope(...args), reportScope)
      })
    )
  ).pipe(Layer.provide(live))
