/**
 * Three sluice processes on one PostgreSQL and one ClickHouse server answer as one
 * service: requests go round-robin over them, and what one node is told, the others know.
 */
import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { LoginResponse } from "../../domain/api/AuthApi.js"
import { CreatedApiKey } from "../../domain/api/KeysApi.js"
import { TestNodes } from "../support/nodes.js"
import { bodyOf } from "../support/server.js"

layer(TestNodes.layer(3), { timeout: 180_000 })("three nodes", (it) => {
  describe("secrets", () => {
    it.effect("a key and a session made through one node work on every node", () =>
      Effect.gen(function* () {
        const nodes = yield* TestNodes
        const created = yield* nodes.callOn(0, "POST", "/v1/keys", {
          token: nodes.admin.key,
          body: { name: "made-on-0", permission: "read_only" }
        })
        expect(created.status, created.text).toBe(201)
        const key = bodyOf(CreatedApiKey, created).token
        const login = yield* nodes.callOn(1, "POST", "/v1/auth/login", {
          body: { email: nodes.admin.email, password: nodes.admin.password }
        })
        expect(login.status, login.text).toBe(200)
        const session = bodyOf(LoginResponse, login).token
        for (let i = 0; i < nodes.size; i++) {
          const withKey = yield* nodes.callOn(i, "POST", "/v1/query", {
            token: key,
            body: { sql: "SELECT 1 AS one" }
          })
          expect(withKey.status, `node ${i}: ${withKey.text}`).toBe(200)
          const withSession = yield* nodes.callOn(i, "GET", "/v1/keys", { token: session })
          expect(withSession.status, `node ${i}: ${withSession.text}`).toBe(200)
        }
      })
    )
  })
})
