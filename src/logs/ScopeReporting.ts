/**
 * Decorators that report callers and scopes to the request log from the two places that
 * decide them, so every handler's requests are attributed without any handler code.
 * They wrap the `Authenticator` and the `Policy` layers (see layers/Server.ts).
 */
import { Effect, Layer } from "effect"
import { Authenticator } from "../../domain/Identity.js"
import { Policy } from "../identity/Policy.js"
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

export const reportingPolicy = <E, R>(live: Layer.Layer<Policy, E, R>) =>
  Layer.effect(
    Policy,
    Effect.map(Policy, (inner) =>
      Policy.make({
        ...inner,
        organizationScope: (...args: Parameters<typeof inner.organizationScope>) =>
          Effect.tap(inner.organizationScope(...args), reportScope),
        clusterScope: (...args: Parameters<typeof inner.clusterScope>) =>
          Effect.tap(inner.clusterScope(...args), reportScope)
      })
    )
  ).pipe(Layer.provide(live))
