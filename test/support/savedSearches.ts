/**
 * Helpers of the saved-search suites: users signed in over HTTP, clusters of their own
 * with the spl-app, and the five endpoints called on the wire with their replies decoded.
 */
import { expect } from "@effect/vitest"
import { Context, Effect, Option, Schema } from "effect"
import { LoginResponse } from "../../domain/api/AuthApi.js"
import { SavedSearch, SavedSearchList } from "../../domain/api/SavedSearchesApi.js"
import { ErrorBody } from "../../domain/Errors.js"
import { DatabasesRepo } from "../../src/databases/DatabasesRepo.js"
import { OrganizationsRepo } from "../../src/identity/OrganizationsRepo.js"
import { arrangeCluster } from "./otherCluster.js"
import type { Reply, RunningServer } from "./server.js"
import { bodyOf, call } from "./server.js"

export const ADMIN = "saved-admin@example.com"
export const PASSWORD = "saved searches admin password"
export const env = { SLUICE_ADMIN_EMAIL: ADMIN, SLUICE_ADMIN_PASSWORD: PASSWORD }

export const login = (server: RunningServer, email: string, password = PASSWORD) =>
  Effect.map(call(server, "POST", "/v1/auth/login", { body: { email, password } }), (reply) => {
    expect(reply.status, reply.text).toBe(200)
    return bodyOf(LoginResponse, reply).token
  })

/** Adds `email` to `organization` with `role` (as the bootstrap admin) and signs them in. */
export const member = (
  server: RunningServer,
  organization: string,
  email: string,
  role: "admin" | "member"
) =>
  Effect.gen(function* () {
    const admin = yield* login(server, ADMIN)
    const added = yield* call(server, "POST", `/v1/organizations/${organization}/members`, {
      token: admin,
      body: { email, role, password: PASSWORD }
    })
    expect(added.status, added.text).toBe(201)
    return yield* login(server, email)
  })

/**
 * A cluster row `name` of `organization` with databases `default` and `more` (no engine:
 * saved searches live in the control plane), the spl-app installed by the admin.
 */
export const splCluster = (server: RunningServer, organization: string, name: string) =>
  Effect.gen(function* () {
    const org = yield* Context.get(server.context, OrganizationsRepo).findByName(organization)
    const cluster = yield* arrangeCluster(server, Option.getOrThrow(org).id, name)
    const databases = Context.get(server.context, DatabasesRepo)
    yield* databases.create(cluster.id, "default")
    yield* databases.create(cluster.id, "more")
    yield* setApp(server, organization, name, "PUT")
    return cluster
  })

export const setApp = (
  server: RunningServer,
  organization: string,
  cluster: string,
  method: "PUT" | "DELETE"
) =>
  Effect.gen(function* () {
    const admin = yield* login(server, ADMIN)
    const path = `/v1/apps/spl-app?organization=${organization}&cluster=${cluster}`
    const reply = yield* call(server, method, path, { token: admin })
    expect(reply.status, reply.text).toBe(200)
  })

export interface Place {
  readonly organization: string
  readonly cluster: string
}

const query = (place: Place, extra: Record<string, string> = {}) =>
  "?" + new URLSearchParams({ ...place, ...extra }).toString()

const BASE = "/v1/apps/spl/searches"

/** The endpoints for `token` at `place`; each returns the raw reply. */
export const searchesAt = (server: RunningServer, place: Place, token: string) => ({
  list: (filters: Record<string, string> = {}) =>
    call(server, "GET", BASE + query(place, filters), { token }),
  create: (
    body: unknown,
    options: { readonly database?: string; readonly headers?: Record<string, string> } = {}
  ) =>
    call(
      server,
      "POST",
      BASE + query(place, options.database === undefined ? {} : { database: options.database }),
      { token, body, headers: options.headers ?? {} }
    ),
  get: (id: string) => call(server, "GET", `${BASE}/${id}${query(place)}`, { token }),
  update: (id: string, body: unknown) =>
    call(server, "PATCH", `${BASE}/${id}${query(place)}`, { token, body }),
  remove: (id: string) => call(server, "DELETE", `${BASE}/${id}${query(place)}`, { token })
})

const One = Schema.Struct({ search: SavedSearch })

/** The search of a 200 or 201 reply. */
export const searchOf = (reply: Reply, status = 200) => {
  expect(reply.status, reply.text).toBe(status)
  return bodyOf(One, reply).search
}

export const listOf = (reply: Reply) => {
  expect(reply.status, reply.text).toBe(200)
  return bodyOf(SavedSearchList, reply)
}

/** The error body of a reply that must have `status` and `error`, exactly the documented shape. */
export const errorOf = (reply: Reply, status: number, error: string) => {
  expect(reply.status, reply.text).toBe(status)
  // Exactly these three properties: nothing else (no stack, no path) leaves the server.
  expect(reply.json).toEqual({ error, message: expect.any(String), hint: expect.any(String) })
  return bodyOf(ErrorBody, reply)
}
