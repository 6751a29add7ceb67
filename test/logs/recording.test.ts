/**
 * Every request is recorded after it completes: all fields of decisions.md §8, the
 * W3C trace context, client identification, and request bodies (small, redacted).
 */
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { TestServer, adminKeyOf, call } from "../support/server.js"
import { awaitEntry } from "./helpers.js"

layer(TestServer.layer(), { excludeTestServices: true, timeout: 120_000 })("request log", (it) => {
  it.effect("a request appears with every field", () =>
    Effect.gen(function* () {
      const server = yield* TestServer
      const admin = adminKeyOf(server)
      const body = { name: "field-check", permission: "read_only" }
      const reply = yield* call(server, "POST", "/v1/keys?database=default", {
        token: admin,
        body,
        headers: { "user-agent": "field-check/1.0" }
      })
      expect(reply.status).toBe(201)
      const entry = yield* awaitEntry(server, admin, (e) => e.user_agent === "field-check/1.0")
      expect(entry).toMatchObject({
        method: "POST",
        path: "/v1/keys",
        route: "/v1/keys",
        status_code: 201,
        level: "success",
        source: "api",
        user_agent: "field-check/1.0",
        client_version: null,
        database: "default",
        key_name: expect.any(String),
        user_email: null,
        organization: "default",
        cluster: "default",
        url_query: "database=default",
        request_body: JSON.stringify(body),
        error: null
      })
      expect(entry.id).toMatch(/^[0-9a-f]{16}$/)
      expect(entry.trace_id).toMatch(/^[0-9a-f]{32}$/)
      expect(Date.parse(entry.created_at)).toBeGreaterThan(Date.now() - 60_000)
      expect(entry.duration_ms).toBeGreaterThan(0)
      expect(entry.request_size_bytes).toBe(Buffer.byteLength(JSON.stringify(body)))
      expect(entry.response_size_bytes).toBe(Buffer.byteLength(reply.text))
    })
  )
})
