/**
 * The metrics-app gates its own capability: a program that embeds sluice and calls
 * `PromQL` directly (no HTTP adapter in between) is refused on a cluster without the app,
 * as an HTTP caller is, and answered once the app is installed.
 */
import { expect, layer } from "@effect/vitest"
import { Context, Effect, Redacted } from "effect"
import { Authorization } from "../../domain/Authorization.js"
import { Authenticator } from "../../domain/Identity.js"
import { DatabaseName } from "../../domain/Ids.js"
import { InstantQuery, PromQL } from "../../domain/PromQL.js"
import { installApp } from "../support/client.js"
import { adminKeyOf, freshDataDir, TestServer } from "../support/server.js"

const ADMIN = "gate-admin@example.com"
const PASSWORD = "gate admin password"

layer(
  TestServer.layer(freshDataDir("promql-gate"), {
    SLUICE_ADMIN_EMAIL: ADMIN,
    SLUICE_ADMIN_PASSWORD: PASSWORD
  }),
  { excludeTestServices: true, timeout: 180_000 }
)("PromQL as a capability", (it) => {
  it.effect("refuses a cluster without the metrics-app, then answers once it is installed", () =>
    Effect.gen(function* () {
      const server = yield* TestServer
      const caller = yield* Context.get(server.context, Authenticator).authenticate(
        Redacted.make(adminKeyOf(server))
      )
      const scope = yield* Context.get(server.context, Authorization).clusterScope(
        caller,
        "read",
        {}
      )
      const promql = Context.get(server.context, PromQL)
      const query = new InstantQuery({ query: "vector(1)", time: 1_700_000_000_000 })
      const database = DatabaseName.make("default")

      const refused = yield* Effect.flip(promql.instant(scope, database, query))
      expect(refused._tag).toBe("AppNotInstalled")

      yield* installApp(server, "metrics-app", ADMIN, PASSWORD)
      const answered = yield* promql.instant(scope, database, query)
      expect(answered).toMatchObject({ _tag: "vector" })
    })
  )
})
