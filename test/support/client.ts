/**
 * The public typed client (`domain/Client.ts`) pointed at a running test server, over
 * fetch. Its methods decode successes into the contract's schemas and error bodies into
 * the domain errors; the raw `call` stays for bodies the contract reads raw and for
 * assertions on the exact wire form (status codes, `error` strings, headers).
 */
import { FetchHttpClient } from "@effect/platform"
import { Effect, Redacted } from "effect"
import { makeSluiceClient } from "../../domain/Client.js"
import type { RunningServer } from "./server.js"
import { adminKeyOf } from "./server.js"

/** A client for `server` that sends `token` (if any) as its bearer credential. */
export const clientOf = (server: { readonly url: string }, token?: string) =>
  makeSluiceClient({ baseUrl: server.url, token }).pipe(Effect.provide(FetchHttpClient.layer))

/** A client for `server` with its bootstrap admin key. */
export const adminClientOf = (server: RunningServer) => clientOf(server, adminKeyOf(server))

/** Installs `app` on the default cluster, signed in as the user `email`. */
export const installApp = (
  server: { readonly url: string },
  app: "otlp-app" | "spl-app" | "metrics-app",
  email: string,
  password: string
) =>
  Effect.gen(function* () {
    const anonymous = yield* clientOf(server)
    const { token } = yield* anonymous.auth.login({
      payload: { email, password: Redacted.make(password) }
    })
    const user = yield* clientOf(server, token)
    yield* user.apps.install({
      path: { app_id: app },
      urlParams: { organization: "default", cluster: "default" }
    })
  }).pipe(Effect.orDie)
