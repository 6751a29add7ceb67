/**
 * API keys over HTTP: the permission matrix on every key endpoint, one-time token
 * display, immediate revocation, and cluster isolation.
 */
import { describe, expect, layer } from "@effect/vitest"
import { Effect, Schema } from "effect"
import { CreatedApiKey } from "../../domain/api/KeysApi.js"
import type { Permission } from "../../domain/Identity.js"
import { otherCluster } from "../support/otherCluster.js"
import { TestServer, adminKeyOf, call } from "../support/server.js"

const Created = Schema.Struct({ key: CreatedApiKey })
const permissions: ReadonlyArray<Permission> = ["admin", "read_write", "write_only", "read_only"]

const createKey = (token: string, permission: Permission, name = `${permission} key`) =>
  Effect.gen(function* () {
    const server = yield* TestServer
    const reply = yield* call(server, "POST", "/v1/keys", { token, body: { name, permission } })
    expect(reply.status).toBe(201)
    return Schema.decodeUnknownSync(Created)(reply.json).key
  })

layer(TestServer.layer(), { excludeTestServices: true, timeout: 120_000 })("API keys", (it) => {
  it.effect("an admin key creates a key whose token is shown once and masked afterwards", () =>
    Effect.gen(function* () {
      const server = yield* TestServer
      const admin = adminKeyOf(server)
      const key = yield* createKey(admin, "read_only", "dashboards")
      expect(key.token).toMatch(/^rt_[A-Za-z0-9_-]{43}$/)
      expect(key.hint).toBe(`rt_***${key.token.slice(-4)}`)
      expect(key.default_database).toBe("default")
      const list = yield* call(server, "GET", "/v1/keys", { token: admin })
      expect(list.status).toBe(200)
      expect(list.text).not.toContain(key.token)
      expect(list.json).toMatchObject({
        organization: { name: "default" },
        cluster: { name: "default" },
        keys: expect.arrayContaining([
          expect.objectContaining({ id: key.id, name: "dashboards", hint: key.hint })
        ])
      })
    })
  )

  describe("permission matrix", () => {
    for (const permission of permissions) {
      it.effect(`${permission} key on list, create and revoke`, () =>
        Effect.gen(function* () {
          const server = yield* TestServer
          const admin = adminKeyOf(server)
          const caller = yield* createKey(admin, permission)
          const victim = yield* createKey(admin, "read_only")
          const allowed = permission === "admin"
          const list = yield* call(server, "GET", "/v1/keys", { token: caller.token })
          const create = yield* call(server, "POST", "/v1/keys", {
            token: caller.token,
            body: { name: "x", permission: "read_only" }
          })
          const revoke = yield* call(server, "DELETE", `/v1/keys/${victim.id}`, {
            token: caller.token
          })
          expect([list.status, create.status, revoke.status]).toEqual(
            allowed ? [200, 201, 200] : [403, 403, 403]
          )
          if (!allowed) {
            expect(list.json).toMatchObject({ error: "forbidden", hint: expect.any(String) })
            expect(list.json).toHaveProperty("message", expect.stringContaining(permission))
          }
        })
      )
    }
  })

  it.effect("revoking by id or by full token takes effect on the next request", () =>
    Effect.gen(function* () {
      const server = yield* TestServer
      const admin = adminKeyOf(server)
      const byId = yield* createKey(admin, "read_write")
      const byToken = yield* createKey(admin, "read_write")
      expect(
        (yield* call(server, "GET", "/v1/organizations", { token: byId.token })).status
      ).not.toBe(401)
      expect((yield* call(server, "DELETE", `/v1/keys/${byId.id}`, { token: admin })).json).toEqual(
        { deleted: true }
      )
      expect(
        (yield* call(server, "DELETE", `/v1/keys/${byToken.token}`, { token: admin })).json
      ).toEqual({ deleted: true })
      for (const revoked of [byId, byToken]) {
        const reply = yield* call(server, "GET", "/v1/keys", { token: revoked.token })
        expect(reply.status).toBe(401)
        expect(reply.json).toMatchObject({ error: "unauthorized" })
      }
      const again = yield* call(server, "DELETE", `/v1/keys/${byId.id}`, { token: admin })
      expect(again.status).toBe(404)
      expect(again.json).toMatchObject({ error: "not_found" })
    })
  )

  it.effect("unknown, malformed and wrong-secret keys are all the same 401", () =>
    Effect.gen(function* () {
      const server = yield* TestServer
      const admin = adminKeyOf(server)
      const wrongSecret = admin.slice(0, -4) + (admin.endsWith("AAAA") ? "BBBB" : "AAAA")
      const candidates = [wrongSecret, "rt_" + "x".repeat(43), "rt_short", "", "garbage"]
      const bodies = new Set<string>()
      for (const token of candidates) {
        const reply = yield* call(server, "GET", "/v1/keys", {
          headers: { authorization: `Bearer ${token}` }
        })
        expect(reply.status).toBe(401)
        bodies.add(reply.text)
      }
      const none = yield* call(server, "GET", "/v1/keys")
      expect(none.status).toBe(401)
      bodies.add(none.text)
      expect(bodies.size).toBe(1)
      expect([...bodies][0]).not.toContain(admin)
    })
  )

  it.effect(
    "a key with a database selector stores it as the default; unknown databases are 404",
    () =>
      Effect.gen(function* () {
        const server = yield* TestServer
        const admin = adminKeyOf(server)
        const missing = yield* call(server, "POST", "/v1/keys?database=nope", {
          token: admin,
          body: { name: "x", permission: "read_only" }
        })
        expect(missing.status).toBe(404)
        const conflict = yield* call(server, "POST", "/v1/keys?database=default", {
          token: admin,
          headers: { "x-service-database": "other" },
          body: { name: "x", permission: "read_only" }
        })
        expect(conflict.status).toBe(400)
        const invalid = yield* call(server, "POST", "/v1/keys", {
          token: admin,
          body: { name: "x", permission: "owner" }
        })
        expect(invalid.status).toBe(400)
        expect(invalid.json).toMatchObject({
          error: "bad_request",
          message: expect.stringContaining("permission")
        })
      })
  )

  it.effect("a key of one cluster never sees or revokes another cluster's keys", () =>
    Effect.gen(function* () {
      const server = yield* TestServer
      const admin = adminKeyOf(server)
      // A second organization and cluster, arranged behind the API (cluster creation is
      // its own endpoint group).
      const other = (yield* otherCluster(server, "other")).token
      const listed = yield* call(server, "GET", "/v1/keys", { token: other })
      expect(listed.status).toBe(200)
      expect(listed.json).toMatchObject({
        cluster: { name: "other" },
        keys: [expect.objectContaining({ name: "other admin" })]
      })
      const victim = yield* createKey(admin, "read_only")
      expect(
        (yield* call(server, "DELETE", `/v1/keys/${victim.id}`, { token: other })).status
      ).toBe(404)
      expect(
        (yield* call(server, "DELETE", `/v1/keys/${victim.token}`, { token: other })).status
      ).toBe(404)
      expect(
        (yield* call(server, "GET", "/v1/keys?cluster=default", { token: other })).status
      ).toBe(403)
      expect((yield* call(server, "GET", "/v1/keys", { token: victim.token })).status).toBe(403)
    })
  )
})
