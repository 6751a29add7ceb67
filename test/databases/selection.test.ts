/**
 * Database selection over HTTP, seen through `POST /v1/keys`, whose new
 * key stores the database the request selected: query parameter, header, the key's own
 * default, conflicts, unknown and invalid names, and the `organization`/`cluster`
 * parameters for API keys and user sessions.
 */
import { expect, layer } from "@effect/vitest"
import { Effect, Schema } from "effect"
import { LoginResponse } from "../../domain/api/AuthApi.js"
import { CreatedApiKey } from "../../domain/api/KeysApi.js"
import { TestServer, adminKeyOf, call, freshDataDir } from "../support/server.js"
import { createKey } from "./support.js"

const EMAIL = "owner@example.com"
const PASSWORD = "correct horse battery staple"
const body = { name: "probe", permission: "read_only" }
const Created = Schema.Struct({ key: CreatedApiKey })

const selected = (token: string, query: string, headers: Record<string, string> = {}) =>
  Effect.gen(function* () {
    const server = yield* TestServer
    const reply = yield* call(server, "POST", `/v1/keys${query}`, { token, body, headers })
    // Raw, not the typed client: refusals are asserted by their wire `error` code.
    const created = reply.status === 201 ? Schema.decodeUnknownSync(Created)(reply.json) : undefined
    return { status: reply.status, database: created?.key.default_database, json: reply.json }
  })

const server = TestServer.layer(freshDataDir(), {
  SLUICE_ADMIN_EMAIL: EMAIL,
  SLUICE_ADMIN_PASSWORD: PASSWORD
})

layer(server, { excludeTestServices: true, timeout: 120_000 })("database selection", (it) => {
  it.effect("query parameter, header, or the key's stored default", () =>
    Effect.gen(function* () {
      const s = yield* TestServer
      const admin = adminKeyOf(s)
      const created = yield* call(s, "POST", "/v1/databases", {
        token: admin,
        body: { name: "sales" }
      })
      expect(created.status).toBe(201)
      expect((yield* selected(admin, "?database=sales")).database).toBe("sales")
      const header = yield* selected(admin, "", { "x-service-database": "sales" })
      expect(header.database).toBe("sales")
      const both = yield* selected(admin, "?database=sales", { "x-service-database": "sales" })
      expect(both.database).toBe("sales")
      expect((yield* selected(admin, "")).database).toBe("default")
      const salesAdmin = yield* createKey(admin, "admin", "?database=sales")
      expect((yield* selected(salesAdmin.token, "")).database).toBe("sales")
      expect((yield* selected(salesAdmin.token, "?database=default")).database).toBe("default")
    })
  )

  it.effect("parameter and header that disagree are a 400", () =>
    Effect.gen(function* () {
      const admin = adminKeyOf(yield* TestServer)
      const reply = yield* selected(admin, "?database=default", { "x-service-database": "other" })
      expect(reply.status).toBe(400)
      expect(reply.json).toMatchObject({
        error: "bad_request",
        message: expect.stringContaining("x-service-database"),
        hint: expect.any(String)
      })
    })
  )

  it.effect("an unknown database is a 404, an invalid name a 400 naming the rule", () =>
    Effect.gen(function* () {
      const admin = adminKeyOf(yield* TestServer)
      const unknown = yield* selected(admin, "?database=nowhere")
      expect(unknown.status).toBe(404)
      expect(unknown.json).toMatchObject({
        error: "not_found",
        hint: expect.stringContaining("/v1/databases")
      })
      const viaHeader = yield* selected(admin, "", { "x-service-database": "nowhere" })
      expect(viaHeader.status).toBe(404)
      const invalid = yield* selected(admin, "?database=drop%20table")
      expect(invalid.status).toBe(400)
      expect(invalid.json).toMatchObject({ hint: expect.stringContaining("start with a letter") })
    })
  )

  it.effect("with an API key, organization and cluster must match its scope (else 403)", () =>
    Effect.gen(function* () {
      const s = yield* TestServer
      const admin = adminKeyOf(s)
      const matching = yield* selected(admin, "?organization=default&cluster=default")
      expect(matching.status).toBe(201)
      const otherOrg = yield* selected(admin, "?organization=acme")
      expect(otherOrg.status).toBe(403)
      expect(otherOrg.json).toMatchObject({
        error: "forbidden",
        hint: expect.stringContaining("default")
      })
      expect((yield* selected(admin, "?cluster=elsewhere")).status).toBe(403)
      const list = yield* call(s, "GET", "/v1/databases?cluster=elsewhere", { token: admin })
      expect(list.status).toBe(403)
      const listOk = yield* call(s, "GET", "/v1/databases?organization=default", { token: admin })
      expect(listOk.status).toBe(200)
    })
  )

  it.effect("with a user session, organization and cluster select the scope", () =>
    Effect.gen(function* () {
      const s = yield* TestServer
      const login = yield* call(s, "POST", "/v1/auth/login", {
        body: { email: EMAIL, password: PASSWORD }
      })
      const token = Schema.decodeUnknownSync(LoginResponse)(login.json).token
      const list = yield* call(s, "GET", "/v1/databases?organization=default&cluster=default", {
        token
      })
      expect(list.status).toBe(200)
      expect(list.json).toMatchObject({ cluster: { name: "default" } })
      const implicit = yield* call(s, "GET", "/v1/databases", { token })
      expect(implicit.status).toBe(200)
      const missing = yield* call(s, "GET", "/v1/databases?cluster=elsewhere", { token })
      expect(missing.status).toBe(404)
      const otherOrg = yield* call(s, "GET", "/v1/databases?organization=acme", { token })
      expect(otherOrg.status).toBe(404)
      const create = yield* call(s, "POST", "/v1/databases?cluster=default", {
        token,
        body: { name: "byuser" }
      })
      expect(create.status).toBe(201)
    })
  )
})
