/** The bearer middleware of every protected group: one `Authenticator` call per request. */
import { Effect, Layer } from "effect"
import { Authentication, Authenticator } from "../../domain/Identity.js"

export const AuthenticationLive = Layer.effect(
  Authentication,
  Effect.map(Authenticator, (authenticator) =>
    Authentication.of({ bearer: (credential) => authenticator.authenticate(credential) })
  )
)
