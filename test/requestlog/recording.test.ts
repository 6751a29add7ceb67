/**
 * Every request is recorded after it completes: every field a client reads, the
 * W3C trace context, client identification, request bodies (small, redacted), errors,
 * users, and unauthenticated requests (kept with no scope, so nobody lists them).
 */
import { expect, layer } from "@effect/vitest"
import { Effect, Schema } from "effect"
import { ErrorBody } from "../../domain/Errors.js"
import { TestServer, adminKeyOf, call } from "../support/server.js"
import { awaitEntry } from "./helpers.js"

const ADMIN = "logs-admin@example.com"
const PASSWORD = "correct horse battery staple"
const env = { SLUICE_ADMIN_EMAIL: ADMIN, SLUICE_ADMIN_PASSWORD: PASSWORD }

const createKey = (token: string, body: unknown, headers: Record<string, string>, query = "") =>
  Effect.flatMap(TestServer, (server) =>
    call(server, "POST", `/v1/keys${query}`, { token, body, headers })
  )

layer(TestServer.layer(undefined, env), { excludeTestServices: true, timeout: 120_000 })(
  "request log",
  (it) => {
    it.effect("a request appears with every field", () =>
      Effect.gen(function* () {
        const server = yield* TestServer
        const admin = adminKeyOf(server)
        const body = { name: "field-check", permission: "read_only" }
        const sent = Date.now()
        const reply = yield* createKey(
          admin,
          body,
          { "user-agent": "field-check/1.0" },
          "?database=default"
        )
        expect(reply.status).toBe(201)
        const answered = Date.now()
        const entry = yield* awaitEntry(server, admin, (e) => e.user_agent === "field-check/1.0")
        expect(entry).toMatchObject({
          method: "POST",
          path: "/v1/keys",
          route: "/v1/keys",
          status_code: 201,
          level: "success",
          source: "api",
          user_agent: "field-check/1.0",
          client_version: "",
          database: "default",
          key_name: expect.any(String),
          user_email: "",
          organization: "default",
          cluster: "default",
          url_query: "database=default",
          request_body: JSON.stringify(body),
          error: "",
          message: null
        })
        expect(entry.id).toMatch(/^[0-9a-f]{16}$/)
        expect(entry.trace_id).toMatch(/^[0-9a-f]{32}$/)
        // Stamped when the request came in: after it was sent, before it was answered.
        expect(Date.parse(entry.created_at)).toBeGreaterThanOrEqual(sent)
        expect(Date.parse(entry.created_at)).toBeLessThanOrEqual(answered)
        expect(entry.duration_ms).toBeGreaterThan(0)
        expect(entry.request_size_bytes).toBe(Buffer.byteLength(JSON.stringify(body)))
        expect(entry.response_size_bytes).toBe(Buffer.byteLength(reply.text))
      })
    )

    it.effect("route is the matched pattern; errors are recorded with their code and hint", () =>
      Effect.gen(function* () {
        const server = yield* TestServer
        const admin = adminKeyOf(server)
        const reply = yield* call(
          server,
          "DELETE",
          "/v1/keys/00000000-0000-4000-8000-000000000000",
          {
            token: admin,
            headers: { "user-agent": "route-check" }
          }
        )
        expect(reply.status).toBe(404)
        const entry = yield* awaitEntry(server, admin, (e) => e.user_agent === "route-check")
        expect(entry).toMatchObject({
          path: "/v1/keys/00000000-0000-4000-8000-000000000000",
          route: "/v1/keys/{id_or_token}",
          status_code: 404,
          level: "warning",
          error: "not_found",
          error_code: "not_found",
          error_hint: expect.any(String)
        })
        // Raw HTTP above: the log is found by its user agent, which the typed client cannot set.
        expect(entry.error_message).toBe(Schema.decodeUnknownSync(ErrorBody)(reply.json).message)
      })
    )

    it.effect("an incoming traceparent sets the trace id; the entry id is the request's span", () =>
      Effect.gen(function* () {
        const server = yield* TestServer
        const admin = adminKeyOf(server)
        const traceId = "4bf92f3577b34da6a3ce929d0e0e4736"
        const parent = "00f067aa0ba902b7"
        yield* call(server, "GET", "/v1/keys", {
          token: admin,
          headers: { traceparent: `00-${traceId}-${parent}-01`, "user-agent": "trace-check" }
        })
        const entry = yield* awaitEntry(server, admin, (e) => e.user_agent === "trace-check")
        expect(entry.trace_id).toBe(traceId)
        expect(entry.id).toMatch(/^[0-9a-f]{16}$/)
        expect(entry.id).not.toBe(parent)
      })
    )

    it.effect("x-service-client and its version name the source; anything else is api", () =>
      Effect.gen(function* () {
        const server = yield* TestServer
        const admin = adminKeyOf(server)
        const cases = [
          { client: "cli", version: "1.4.2", source: "cli" },
          { client: "ui", version: "2026.11", source: "ui" },
          { client: "curl", version: "8", source: "api" }
        ] as const
        for (const c of cases) {
          yield* call(server, "GET", "/v1/keys", {
            token: admin,
            headers: {
              "x-service-client": c.client,
              "x-service-client-version": c.version,
              "user-agent": `source-${c.client}`
            }
          })
        }
        for (const c of cases) {
          const entry = yield* awaitEntry(
            server,
            admin,
            (e) => e.user_agent === `source-${c.client}`
          )
          expect([entry.source, entry.client_version]).toEqual([c.source, c.version])
        }
      })
    )

    it.effect("secrets in the body and the query are redacted", () =>
      Effect.gen(function* () {
        const server = yield* TestServer
        const admin = adminKeyOf(server)
        const reply = yield* createKey(
          admin,
          {
            name: "redaction",
            permission: "read_only",
            password: "hunter2-password",
            nested: { api_key: "sk-abcdef", client_secret: "s3cr3t-value", token: "tok-value" },
            note: `pasted ${admin} by mistake`
          },
          { "user-agent": "redaction-check" },
          "?database=default&access_token=query-secret"
        )
        expect(reply.status).toBe(201)
        const entry = yield* awaitEntry(server, admin, (e) => e.user_agent === "redaction-check")
        const logged = JSON.stringify(entry)
        for (const secret of [
          "hunter2-password",
          "sk-abcdef",
          "s3cr3t-value",
          "tok-value",
          "query-secret",
          admin
        ]) {
          expect(logged).not.toContain(secret)
        }
        expect(JSON.parse(entry.request_body)).toMatchObject({
          name: "redaction",
          password: "[REDACTED]",
          nested: { api_key: "[REDACTED]", client_secret: "[REDACTED]", token: "[REDACTED]" }
        })
        expect(entry.url_query).toContain("database=default")
        expect(entry.url_query).toContain("access_token=")
      })
    )

    it.effect("a body over 8 KiB is measured but not kept", () =>
      Effect.gen(function* () {
        const server = yield* TestServer
        const admin = adminKeyOf(server)
        const body = { name: "big", permission: "read_only", padding: "x".repeat(9000) }
        const reply = yield* createKey(admin, body, { "user-agent": "big-body" })
        expect(reply.status).toBe(201)
        const entry = yield* awaitEntry(server, admin, (e) => e.user_agent === "big-body")
        expect(entry.request_body).toBe("")
        expect(entry.request_size_bytes).toBe(Buffer.byteLength(JSON.stringify(body)))
      })
    )

    it.effect("a streamed insert body is never captured", () =>
      Effect.gen(function* () {
        const server = yield* TestServer
        const admin = adminKeyOf(server)
        yield* call(server, "POST", "/v1/tables/log_probe", {
          token: admin,
          rawBody: '{"a":1}\n{"a":2}\n',
          headers: { "content-type": "application/x-ndjson", "user-agent": "insert-check" }
        })
        const entry = yield* awaitEntry(server, admin, (e) => e.user_agent === "insert-check")
        expect(entry).toMatchObject({ route: "/v1/tables/{table}", request_body: "" })
        expect(entry.request_size_bytes).toBe(16)
      })
    )

    it.effect("a user session is recorded with the user's email and the scope it chose", () =>
      Effect.gen(function* () {
        const server = yield* TestServer
        const admin = adminKeyOf(server)
        const login = yield* call(server, "POST", "/v1/auth/login", {
          body: { email: ADMIN, password: PASSWORD }
        })
        const { token } = Schema.decodeUnknownSync(Schema.Struct({ token: Schema.String }))(
          login.json
        )
        yield* call(server, "GET", "/v1/keys?organization=default&cluster=default", {
          token,
          headers: { "user-agent": "user-check" }
        })
        const entry = yield* awaitEntry(server, admin, (e) => e.user_agent === "user-check")
        expect(entry).toMatchObject({
          user_email: ADMIN,
          key_name: "",
          organization: "default",
          cluster: "default",
          status_code: 200
        })
        // The login itself has no scope, so it is kept but listed to nobody.
        const logins = yield* call(server, "GET", "/v1/logs?search=/v1/auth/login", {
          token: admin
        })
        expect(logins.json).toMatchObject({ logs: [] })
      })
    )

    it.effect("a request that fails authentication is listed to nobody", () =>
      Effect.gen(function* () {
        const server = yield* TestServer
        const admin = adminKeyOf(server)
        const reply = yield* call(server, "GET", "/v1/keys", {
          token: "rt_" + "x".repeat(43),
          headers: { "user-agent": "anonymous-check" }
        })
        expect(reply.status).toBe(401)
        // Records are written in order: once a later one is visible, this one was written.
        yield* call(server, "GET", "/v1/keys", { token: admin, headers: { "user-agent": "after" } })
        yield* awaitEntry(server, admin, (e) => e.user_agent === "after")
        const page = yield* call(server, "GET", "/v1/logs?user_agent=anonymous-check", {
          token: admin
        })
        expect(page.json).toMatchObject({ logs: [], has_more: false, next_offset: null })
      })
    )
  }
)
