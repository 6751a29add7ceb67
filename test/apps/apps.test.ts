/**
 * Apps over HTTP: every row of the installation state table, who may read and change,
 * what is never confirmed to outsiders, bad input, and the gate that the apps' native
 * endpoints use (404 naming the app until it is installed; data kept across uninstall).
 */
import { expect, layer } from "@effect/vitest"
import { Context, Effect, Exit, Option, Schema } from "effect"
import type { App } from "../../domain/api/AppsApi.js"
import { LoginResponse } from "../../domain/api/AuthApi.js"
import { QueryRequest } from "../../domain/api/QueryApi.js"
import { ErrorBody } from "../../domain/Errors.js"
import type { ClusterPhase } from "../../domain/api/ClusterModels.js"
import { ClusterId } from "../../domain/Ids.js"
import { AppRegistry } from "../../domain/AppRegistry.js"
import { ClustersRepo } from "../../src/clusters/ClustersRepo.js"
import { OrganizationsRepo } from "../../src/identity/OrganizationsRepo.js"
import { arrangeCluster as arrangeClusterRow, otherCluster } from "../support/otherCluster.js"
import type { Reply } from "../support/server.js"
import { clientOf } from "../support/client.js"
import { TestServer, adminKeyOf, call, freshDataDir } from "../support/server.js"

const ADMIN = "apps-admin@example.com"
const PASSWORD = "apps admin password"
const CATALOG = ["otlp-app", "metrics-app", "spl-app"]

const sessionOf = (email: string, password: string) =>
  Effect.gen(function* () {
    const server = yield* TestServer
    const reply = yield* call(server, "POST", "/v1/auth/login", { body: { email, password } })
    expect(reply.status, reply.text).toBe(200)
    return Schema.decodeUnknownSync(LoginResponse)(reply.json).token
  })

const adminSession = sessionOf(ADMIN, PASSWORD)

/** A cluster of the default organization, arranged behind the API (no engine needed). */
const arrangeCluster = (name: string, phase: ClusterPhase = "ready") =>
  Effect.gen(function* () {
    const server = yield* TestServer
    const org = yield* Context.get(server.context, OrganizationsRepo).findByName("default")
    return yield* arrangeClusterRow(server, Option.getOrThrow(org).id, name, phase)
  })

const apps = (method: "GET" | "PUT" | "DELETE", token: string, query: string, app?: string) =>
  Effect.flatMap(TestServer, (server) =>
    call(server, method, `/v1/apps${app === undefined ? "" : `/${app}`}?${query}`, { token })
  )

/** The apps of `cluster` in `default` as `token` lists them (decoded only from a 200). */
const listApps = (token: string, cluster: string) =>
  Effect.flatMap(TestServer, (server) =>
    Effect.flatMap(clientOf(server, token), (client) =>
      client.apps.list({ urlParams: { organization: "default", cluster } })
    )
  )

/** The wire error: status, `error` code and both texts, decoded for the test to read. */
const expectError = (reply: Reply, status: number, error: string) => {
  expect(reply.status, reply.text).toBe(status)
  expect(reply.json).toMatchObject({ error, message: expect.any(String), hint: expect.any(String) })
  return Schema.decodeUnknownSync(ErrorBody)(reply.json)
}

const installedOf = (list: { readonly apps: ReadonlyArray<App> }) =>
  Object.fromEntries(list.apps.map((a) => [a.id, a.installed]))

const env = { SLUICE_ADMIN_EMAIL: ADMIN, SLUICE_ADMIN_PASSWORD: PASSWORD }

layer(TestServer.layer(freshDataDir(), env), { excludeTestServices: true, timeout: 120_000 })(
  "apps",
  (it) => {
    it.effect("a new cluster lists the whole catalog, nothing installed", () =>
      Effect.gen(function* () {
        const token = yield* adminSession
        const cluster = yield* arrangeCluster("fresh")
        const list = yield* apps("GET", token, "organization=default&cluster=fresh")
        expect(list.status, list.text).toBe(200)
        expect(list.json).toEqual({
          cluster: { id: cluster.id, name: "fresh" },
          apps: CATALOG.map((id) => ({ id, name: expect.any(String), installed: false }))
        })
      })
    )

    it.effect("every row of the installation state table; the lifecycle is unchanged", () =>
      Effect.gen(function* () {
        const server = yield* TestServer
        const token = yield* adminSession
        const cluster = yield* arrangeCluster("states")
        const q = "organization=default&cluster=states"
        const name = (yield* listApps(token, "states")).apps[2]!.name
        // installed false --PUT--> installed true
        const install = yield* apps("PUT", token, q, "spl-app")
        expect(install.status, install.text).toBe(200)
        expect(install.json).toEqual({ id: "spl-app", name, installed: true })
        expect(installedOf(yield* listApps(token, "states"))).toEqual({
          "otlp-app": false,
          "metrics-app": false,
          "spl-app": true
        })
        // installed true --PUT--> installed true (idempotent)
        const again = yield* apps("PUT", token, q, "spl-app")
        expect(again.status).toBe(200)
        expect(again.json).toEqual({ id: "spl-app", name, installed: true })
        expect(installedOf(yield* listApps(token, "states"))["spl-app"]).toBe(true)
        // installed true --DELETE--> installed false
        const remove = yield* apps("DELETE", token, q, "spl-app")
        expect(remove.status).toBe(200)
        expect(remove.json).toEqual({ id: "spl-app", name, installed: false })
        expect(installedOf(yield* listApps(token, "states"))["spl-app"]).toBe(false)
        // installed false --DELETE--> installed false (idempotent)
        const removeAgain = yield* apps("DELETE", token, q, "spl-app")
        expect(removeAgain.status).toBe(200)
        expect(removeAgain.json).toEqual({ id: "spl-app", name, installed: false })
        // Installing and uninstalling never touched the cluster's phase.
        const after = yield* Context.get(server.context, ClustersRepo).findById(cluster.id)
        expect(Option.getOrThrow(after).phase).toBe("ready")
      })
    )

    it.effect("listing and changes work while the cluster is provisioning or paused", () =>
      Effect.gen(function* () {
        const token = yield* adminSession
        for (const phase of ["provisioning", "paused"] as const) {
          yield* arrangeCluster(`in-${phase}`, phase)
          const q = `organization=default&cluster=in-${phase}`
          expect(installedOf(yield* listApps(token, `in-${phase}`))["otlp-app"]).toBe(false)
          expect((yield* apps("PUT", token, q, "otlp-app")).status).toBe(200)
          expect(installedOf(yield* listApps(token, `in-${phase}`))["otlp-app"]).toBe(true)
        }
      })
    )

    it.effect("a member reads the apps but installing or uninstalling is 403", () =>
      Effect.gen(function* () {
        const server = yield* TestServer
        const admin = yield* adminSession
        yield* arrangeCluster("shared")
        const q = "organization=default&cluster=shared"
        expect((yield* apps("PUT", admin, q, "metrics-app")).status).toBe(200)
        const added = yield* call(server, "POST", "/v1/organizations/default/members", {
          token: admin,
          body: { email: "apps-member@example.com", role: "member", password: "a member password" }
        })
        expect(added.status, added.text).toBe(201)
        const member = yield* sessionOf("apps-member@example.com", "a member password")
        expect(installedOf(yield* listApps(member, "shared"))).toEqual({
          "otlp-app": false,
          "metrics-app": true,
          "spl-app": false
        })
        expectError(yield* apps("PUT", member, q, "otlp-app"), 403, "forbidden")
        expectError(yield* apps("DELETE", member, q, "metrics-app"), 403, "forbidden")
        expect(installedOf(yield* listApps(member, "shared"))).toEqual({
          "otlp-app": false,
          "metrics-app": true,
          "spl-app": false
        })
      })
    )

    it.effect("cluster API keys are refused with 403 on all three endpoints", () =>
      Effect.gen(function* () {
        const server = yield* TestServer
        const other = yield* otherCluster(server, "keyed")
        const cases = [
          [adminKeyOf(server), "organization=default&cluster=default"],
          [other.token, "organization=keyed&cluster=keyed"]
        ] as const
        for (const [key, q] of cases) {
          const list = expectError(yield* apps("GET", key, q), 403, "forbidden")
          expect(list.hint).toContain("/v1/auth/login")
          expectError(yield* apps("PUT", key, q, "otlp-app"), 403, "forbidden")
          expectError(yield* apps("DELETE", key, q, "otlp-app"), 403, "forbidden")
        }
        const admin = yield* adminSession
        expect(installedOf(yield* listApps(admin, "default"))["otlp-app"]).toBe(false)
      })
    )

    it.effect("unknown organization, another organization's cluster, unknown cluster → 404", () =>
      Effect.gen(function* () {
        const server = yield* TestServer
        const token = yield* adminSession
        const other = yield* otherCluster(server, "elsewhere")
        const queries = [
          "organization=nowhere&cluster=default",
          "organization=elsewhere&cluster=elsewhere",
          "organization=default&cluster=elsewhere",
          "organization=default&cluster=nothing-here"
        ]
        for (const q of queries) {
          for (const [method, app] of [
            ["GET", undefined],
            ["PUT", "otlp-app"],
            ["DELETE", "otlp-app"]
          ] as const) {
            const reply = yield* apps(method, token, q, app)
            expectError(reply, 404, "not_found")
            expect(reply.text).not.toContain(other.cluster.id)
          }
        }
        const unknown = expectError(
          yield* apps("GET", token, "organization=default&cluster=nothing-here"),
          404,
          "not_found"
        )
        expect(unknown.hint).toContain("default")
        // Nothing was installed on the other organization's cluster.
        const gate = Context.get(server.context, AppRegistry)
        expect(yield* gate.installed(other.cluster.id, "otlp-app")).toBe(false)
      })
    )

    it.effect("an unknown app id → 404 whose hint lists the catalog", () =>
      Effect.gen(function* () {
        const token = yield* adminSession
        const q = "organization=default&cluster=default"
        for (const method of ["PUT", "DELETE"] as const) {
          const reply = expectError(yield* apps(method, token, q, "grafana-app"), 404, "not_found")
          expect(reply.message).toContain("grafana-app")
          for (const id of CATALOG) expect(reply.hint).toContain(id)
        }
      })
    )

    it.effect("malformed input: missing organization or cluster → 400; no credential → 401", () =>
      Effect.gen(function* () {
        const server = yield* TestServer
        const token = yield* adminSession
        for (const q of ["organization=default", "cluster=default", ""]) {
          expectError(yield* apps("GET", token, q), 400, "bad_request")
          expectError(yield* apps("PUT", token, q, "otlp-app"), 400, "bad_request")
          expectError(yield* apps("DELETE", token, q, "otlp-app"), 400, "bad_request")
        }
        const anonymous = yield* call(
          server,
          "GET",
          "/v1/apps?organization=default&cluster=default"
        )
        expectError(anonymous, 401, "unauthorized")
        const garbage = yield* apps("GET", "not-a-token", "organization=default&cluster=default")
        expectError(garbage, 401, "unauthorized")
      })
    )

    it.effect(
      "the gate: 404 naming the app until installed; uninstall keeps data, reinstall restores",
      () =>
        Effect.gen(function* () {
          const server = yield* TestServer
          const gate = Context.get(server.context, AppRegistry)
          const token = yield* adminSession
          const q = "organization=default&cluster=default"
          const list = yield* listApps(token, "default")
          const cluster = ClusterId.make(list.cluster.id)

          const closed = yield* Effect.exit(gate.require(cluster, "otlp-app"))
          expect(Exit.isFailure(closed)).toBe(true)
          const error = yield* Effect.flip(gate.require(cluster, "otlp-app"))
          expect(error._tag).toBe("AppNotInstalled")
          expect(error.message).toContain("otlp-app")
          expect(error.message).toContain("not installed")
          expect(error.hint).toContain("PUT /v1/apps/otlp-app?organization=default&cluster=default")
          expect(error.hint).toContain("organization admin")
          expect(yield* gate.installed(cluster, "otlp-app")).toBe(false)

          // Some data in the cluster, to see it survive the uninstall.
          const key = adminKeyOf(server)
          const inserted = yield* call(server, "POST", "/v1/tables/gated", {
            token: key,
            body: [{ n: 1 }, { n: 2 }]
          })
          expect(inserted.json, inserted.text).toEqual({ inserted: 2 })

          expect((yield* apps("PUT", token, q, "otlp-app")).status).toBe(200)
          yield* gate.require(cluster, "otlp-app")
          expect(yield* gate.installed(cluster, "otlp-app")).toBe(true)
          // Other apps stay closed.
          expect((yield* Effect.flip(gate.require(cluster, "spl-app"))).hint).toContain("spl-app")

          expect((yield* apps("DELETE", token, q, "otlp-app")).status).toBe(200)
          expect((yield* Effect.flip(gate.require(cluster, "otlp-app")))._tag).toBe(
            "AppNotInstalled"
          )
          const keyClient = yield* clientOf(server, key)
          // Decoded only from a 200.
          const count = yield* keyClient.query.query({
            urlParams: {},
            payload: QueryRequest.make({ sql: "SELECT count() AS c FROM gated" })
          })
          // count() is a UInt64, which JSON carries as a string.
          expect(count.data).toEqual([{ c: "2" }])

          expect((yield* apps("PUT", token, q, "otlp-app")).status).toBe(200)
          yield* gate.require(cluster, "otlp-app")
          expect(yield* gate.installed(cluster, "otlp-app")).toBe(true)
        })
    )
  }
)
