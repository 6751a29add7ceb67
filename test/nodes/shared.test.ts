/**
 * Three sluice processes on one PostgreSQL and one ClickHouse server answer as one
 * service: what one node is told, the others know. A change made through one node is
 * looked for on another a bounded number of times over well under the caches' 5 s
 * lifetime, so a node that only forgets on its own clock fails these.
 */
import { describe, expect, layer } from "@effect/vitest"
import { Effect, Option, Schema } from "effect"
import { LoginResponse } from "../../domain/api/AuthApi.js"
import { DeviceStartResponse, DeviceTokenResponse } from "../../domain/api/DeviceLoginApi.js"
import { CreatedApiKey } from "../../domain/api/KeysApi.js"
import { eventually } from "../support/eventually.js"
import { TestNodes } from "../support/nodes.js"
import type { Nodes } from "../support/nodes.js"
import { bodyOf } from "../support/server.js"
import type { Reply } from "../support/server.js"

const ORG = "?organization=default"
/** What the command line sends with its device-login requests. */
const CLI = { "x-service-client": "cli", "x-service-client-version": "2.3.0" }
const IN_DEFAULT = `${ORG}&cluster=default`
/** 10 looks 20 ms apart: well under the caches' lifetime, even with slow answers. */
const SOON = { attempts: 10, pauseMs: 20 } as const

const ErrorBody = Schema.Struct({ error: Schema.String })
const Created = Schema.Struct({ id: Schema.String })

const errorOf = (reply: Reply) =>
  Option.getOrUndefined(Schema.decodeUnknownOption(ErrorBody)(reply.json))?.error

const sessionOn = (nodes: Nodes, i: number) =>
  Effect.map(
    nodes.callOn(i, "POST", "/v1/auth/login", {
      body: { email: nodes.admin.email, password: nodes.admin.password }
    }),
    (login) => {
      expect(login.status, login.text).toBe(200)
      return bodyOf(LoginResponse, login).token
    }
  )

const keyOn = (
  nodes: Nodes,
  i: number,
  name: string,
  cluster = "default",
  token = nodes.admin.key
) =>
  Effect.map(
    nodes.callOn(i, "POST", `/v1/keys${ORG}&cluster=${cluster}`, {
      token,
      body: { name, permission: "admin" }
    }),
    (created) => {
      expect(created.status, created.text).toBe(201)
      return bodyOf(CreatedApiKey, created)
    }
  )

const queryOn = (nodes: Nodes, i: number, token: string, sql: string) =>
  nodes.callOn(i, "POST", "/v1/query", { token, body: { sql } })

/** Looks on node `i` until `done` holds for its answer, for at most `SOON`. */
const soonOn = (i: number, what: string, look: Effect.Effect<Reply>, done: (r: Reply) => boolean) =>
  eventually(
    `${what} on node ${i}`,
    Effect.map(look, (reply) => (done(reply) ? reply : undefined)),
    SOON
  )

layer(TestNodes.layer(3), { timeout: 180_000 })("three nodes", (it) => {
  describe("secrets", () => {
    it.effect("a key and a session made through one node work on every node", () =>
      Effect.gen(function* () {
        const nodes = yield* TestNodes
        const key = (yield* keyOn(nodes, 0, "made-on-0")).token
        const session = yield* sessionOn(nodes, 1)
        for (let i = 0; i < nodes.size; i++) {
          const withKey = yield* queryOn(nodes, i, key, "SELECT 1 AS one")
          expect(withKey.status, `node ${i}: ${withKey.text}`).toBe(200)
          const withSession = yield* nodes.callOn(i, "GET", "/v1/keys", { token: session })
          expect(withSession.status, `node ${i}: ${withSession.text}`).toBe(200)
        }
      })
    )
  })

  describe("kept in PostgreSQL", () => {
    it.effect(
      "a device login started on one node is approved on another and collected on a third",
      () =>
        Effect.gen(function* () {
          const nodes = yield* TestNodes
          const started = yield* nodes.callOn(0, "POST", "/v1/auth/cli/device/start", {
            body: {},
            headers: CLI
          })
          expect(started.status, started.text).toBe(200)
          const login = bodyOf(DeviceStartResponse, started)
          const collect = (i: number) =>
            nodes.callOn(i, "POST", "/v1/auth/cli/device/token", {
              body: { device_code: login.device_code },
              headers: CLI
            })
          expect(errorOf(yield* collect(2))).toBe("authorization_pending")
          const session = yield* sessionOn(nodes, 1)
          const approved = yield* nodes.callOn(1, "POST", "/v1/auth/cli/device/approval", {
            token: session,
            body: { user_code: login.user_code, decision: "approve" }
          })
          expect(approved.status, approved.text).toBe(200)
          const granted = yield* collect(2)
          expect(granted.status, granted.text).toBe(200)
          const token = bodyOf(DeviceTokenResponse, granted)
          expect(token.email).toBe(nodes.admin.email)
          // Handed out once, whichever node is asked next.
          expect(errorOf(yield* collect(0))).toBe("expired_token")
          const keys = yield* nodes.callOn(0, "GET", `/v1/keys${IN_DEFAULT}`, {
            token: token.token
          })
          expect(keys.status, keys.text).toBe(200)
        })
    )

    it.effect("failed sign-ins are counted across the nodes", () =>
      Effect.gen(function* () {
        const nodes = yield* TestNodes
        const email = "nobody-here@example.com"
        // The account's allowance is 10 failures in 15 minutes, wherever they are sent.
        for (let attempt = 0; attempt < 10; attempt++) {
          const refused = yield* nodes.call("POST", "/v1/auth/login", {
            body: { email, password: "wrong password" }
          })
          expect(refused.status, refused.text).toBe(401)
        }
        for (let i = 0; i < nodes.size; i++) {
          const held = yield* nodes.callOn(i, "POST", "/v1/auth/login", {
            body: { email, password: "wrong password" }
          })
          expect(held.status, `node ${i}: ${held.text}`).toBe(429)
          expect(Number(held.headers.get("retry-after"))).toBeGreaterThan(0)
        }
      })
    )
  })

  describe("caches", () => {
    it.effect("a key deleted through one node is refused by the others", () =>
      Effect.gen(function* () {
        const nodes = yield* TestNodes
        const key = yield* keyOn(nodes, 0, "to-revoke")
        // Each node has looked the key up (and keeps the lookup) before it is revoked.
        for (let i = 0; i < nodes.size; i++) {
          expect((yield* queryOn(nodes, i, key.token, "SELECT 1 AS one")).status).toBe(200)
        }
        const revoked = yield* nodes.callOn(0, "DELETE", `/v1/keys/${key.id}${IN_DEFAULT}`, {
          token: nodes.admin.key
        })
        expect(revoked.status, revoked.text).toBe(200)
        for (const i of [1, 2]) {
          yield* soonOn(
            i,
            "the revoked key refused",
            queryOn(nodes, i, key.token, "SELECT 1 AS one"),
            (r) => r.status === 401
          )
        }
      })
    )

    it.effect("an app uninstalled through one node is off on the others", () =>
      Effect.gen(function* () {
        const nodes = yield* TestNodes
        const session = yield* sessionOn(nodes, 0)
        const labels = (i: number) =>
          nodes.callOn(i, "GET", "/metrics-compat/api/v1/labels", { token: nodes.admin.key })
        const installed = yield* nodes.callOn(0, "PUT", `/v1/apps/metrics-app${IN_DEFAULT}`, {
          token: session
        })
        expect(installed.status, installed.text).toBe(200)
        for (const i of [1, 2]) {
          yield* soonOn(i, "metrics-app on", labels(i), (r) => r.status === 200)
        }
        const uninstalled = yield* nodes.callOn(0, "DELETE", `/v1/apps/metrics-app${IN_DEFAULT}`, {
          token: session
        })
        expect(uninstalled.status, uninstalled.text).toBe(200)
        for (const i of [1, 2]) {
          const off = yield* soonOn(i, "metrics-app off", labels(i), (r) => r.status === 404)
          expect(off.text).toContain("metrics-app")
        }
      })
    )

    it.effect("a field given a second type through one node is hinted on the others", () =>
      Effect.gen(function* () {
        const nodes = yield* TestNodes
        const insert = (row: unknown) =>
          Effect.map(
            nodes.callOn(0, "POST", "/v1/tables/hinted", { token: nodes.admin.key, body: [row] }),
            (reply) => expect(reply.status, reply.text).toBe(200)
          )
        const hintsOn = (i: number) =>
          Effect.map(
            queryOn(nodes, i, nodes.admin.key, "SELECT sum(amount) AS total FROM hinted"),
            (reply) => {
              expect(reply.status, reply.text).toBe(200)
              return reply
            }
          )
        yield* insert({ amount: 1 })
        // The other nodes read the table's types once, before the change.
        for (const i of [1, 2]) expect((yield* hintsOn(i)).text).not.toContain("amount holds")
        yield* insert({ amount: "lots" })
        for (const i of [1, 2]) {
          yield* soonOn(i, "the hint", hintsOn(i), (r) => r.text.includes("amount holds"))
        }
      })
    )

    it.effect("a cluster paused through one node answers cluster_paused on the others", () =>
      Effect.gen(function* () {
        const nodes = yield* TestNodes
        const session = yield* sessionOn(nodes, 0)
        const created = yield* nodes.callOn(0, "POST", `/v1/clusters${ORG}`, {
          token: session,
          body: { name: "pausable", replicas: 1, size: { cpu_cores: 1, memory_gib: 4 } }
        })
        expect(created.status, created.text).toBe(201)
        const id = Schema.decodeUnknownSync(Created)(created.json).id
        const key = (yield* keyOn(nodes, 0, "pausable-admin", "pausable", session)).token
        // Every node serves the cluster (and knows it ready) before the pause.
        for (let i = 0; i < nodes.size; i++) {
          yield* eventually(
            `the new cluster ready on node ${i}`,
            Effect.map(queryOn(nodes, i, key, "SELECT 1 AS one"), (r) =>
              r.status === 200 ? r : undefined
            )
          )
        }
        const stopped = yield* nodes.callOn(0, "POST", `/v1/clusters/${id}/stop${ORG}`, {
          token: session
        })
        expect(stopped.status, stopped.text).toBe(200)
        for (const i of [1, 2]) {
          yield* soonOn(
            i,
            "cluster_paused",
            queryOn(nodes, i, key, "SELECT 1 AS one"),
            (r) => errorOf(r) === "cluster_paused"
          )
        }
      })
    )
  })
})
