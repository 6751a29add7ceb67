/**
 * Deleting every organization does not make the next start a first start: the admin,
 * and whatever users there are, keep their accounts, and no second admin key is printed.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Option, Schema } from "effect"
import { LoginResponse } from "../../domain/api/AuthApi.js"
import { bodyOf, call, freshDataDir, startServer } from "../support/server.js"

const ADMIN = "last-org@example.com"
const PASSWORD = "last organization password"
const env = { SLUICE_ADMIN_EMAIL: ADMIN, SLUICE_ADMIN_PASSWORD: PASSWORD }
const CLI = { "x-service-client": "cli" }

const login = (server: { readonly url: string }) =>
  Effect.map(
    call(server, "POST", "/v1/auth/login", {
      body: { email: ADMIN, password: PASSWORD },
      headers: CLI
    }),
    (reply) => bodyOf(LoginResponse, reply).token
  )

const Memberships = Schema.Struct({
  organizations: Schema.Array(Schema.Struct({ name: Schema.String, role: Schema.String }))
})

describe("no organization left", () => {
  it.live(
    "a start after the last organization was deleted is not a first start",
    () =>
      Effect.gen(function* () {
        const dataDir = freshDataDir("no-organizations")
        yield* Effect.scoped(
          Effect.gen(function* () {
            const server = yield* startServer(dataDir, env)
            expect(Option.isSome(server.firstStart)).toBe(true)
            const token = yield* login(server)
            const deleted = yield* call(server, "DELETE", "/v1/organizations/default", {
              token,
              headers: CLI
            })
            expect(deleted.status, deleted.text).toBe(200)
          })
        )
        yield* Effect.scoped(
          Effect.gen(function* () {
            const server = yield* startServer(dataDir, env)
            expect(Option.isNone(server.firstStart)).toBe(true)
            const token = yield* login(server)
            const listed = yield* call(server, "GET", "/v1/organizations", { token, headers: CLI })
            expect(bodyOf(Memberships, listed)).toEqual({ organizations: [] })
            const created = yield* call(server, "POST", "/v1/organizations", {
              token,
              body: { organization_name: "default" },
              headers: CLI
            })
            expect(created.status, created.text).toBe(201)
          })
        )
      }),
    180_000
  )
})
