/**
 * API keys and session tokens never reach the request log, whichever field they were
 * sent in: a path (a failed revoke names the key it meant), a header of any name, a
 * query's SQL literal, the user agent. Read back as a read-only key of the cluster sees it.
 */
import { expect, layer } from "@effect/vitest"
import { Effect, Schema } from "effect"
import { CreatedApiKey } from "../../domain/api/KeysApi.js"
import { TestServer, adminKeyOf, call } from "../support/server.js"
import { awaitEntry } from "./helpers.js"

const ADMIN = "tokens-admin@example.com"
const PASSWORD = "correct horse battery staple"
const env = { SLUICE_ADMIN_EMAIL: ADMIN, SLUICE_ADMIN_PASSWORD: PASSWORD }

const createKey = (permission: string) =>
  Effect.gen(function* () {
    const server = yield* TestServer
    const reply = yield* call(server, "POST", "/v1/keys", {
      token: adminKeyOf(server),
      body: { name: `${permission} key`, permission }
    })
    expect(reply.status).toBe(201)
    return Schema.decodeUnknownSync(Schema.Struct({ key: CreatedApiKey }))(reply.json).key
  })

const sessionToken = Effect.gen(function* () {
  const server = yield* TestServer
  const login = yield* call(server, "POST", "/v1/auth/login", {
    body: { email: ADMIN, password: PASSWORD }
  })
  return Schema.decodeUnknownSync(Schema.Struct({ token: Schema.String }))(login.json).token
})

layer(TestServer.layer(undefined, env), { excludeTestServices: true, timeout: 120_000 })(
  "tokens in the request log",
  (it) => {
    it.effect("a live key in a failed revoke's path is redacted, plain or percent-encoded", () =>
      Effect.gen(function* () {
        const server = yield* TestServer
        const victim = yield* createKey("read_write")
        const reader = yield* createKey("read_only")
        const plain = yield* call(server, "DELETE", `/v1/keys/${victim.token}`, {
          token: reader.token,
          headers: { "user-agent": "revoke-plain" }
        })
        expect(plain.status).toBe(403)
        const encoded = `%${victim.token.charCodeAt(0).toString(16)}${victim.token.slice(1)}`
        const percent = yield* call(server, "DELETE", `/v1/keys/${encoded}`, {
          token: reader.token,
          headers: { "user-agent": "revoke-encoded" }
        })
        expect(percent.status).toBe(403)
        for (const agent of ["revoke-plain", "revoke-encoded"]) {
          const entry = yield* awaitEntry(server, reader.token, (e) => e.user_agent === agent)
          expect(entry.path).toBe("/v1/keys/rt_[REDACTED]")
          expect(JSON.stringify(entry)).not.toContain(victim.token.slice(3))
        }
        // A table route names the table too; with a NUL beside the key the entry is kept.
        yield* call(server, "GET", `/v1/tables/${victim.token}%00`, {
          token: reader.token,
          headers: { "user-agent": "table-key" }
        })
        const table = yield* awaitEntry(server, reader.token, (e) => e.user_agent === "table-key")
        expect(JSON.stringify(table)).not.toContain(victim.token.slice(3))
        // The key still works: it was refused a revoke, not leaked and revoked.
        const still = yield* call(server, "GET", "/v1/tables", { token: victim.token })
        expect(still.status).toBe(200)
      })
    )

    it.effect("a session token is redacted in custom headers, an SQL literal and a query", () =>
      Effect.gen(function* () {
        const server = yield* TestServer
        const admin = adminKeyOf(server)
        const session = yield* sessionToken
        expect(session).toMatch(/^eyJ[\w-]+\.[\w-]+\.[\w-]+$/)
        const query = yield* call(server, "POST", "/v1/query", {
          token: admin,
          body: { sql: `SELECT '${session}' AS s` },
          headers: { "user-agent": "jwt-query", "x-forwarded-session": session }
        })
        expect(query.status).toBe(200)
        // A path segment with dots is routed nowhere (and so listed to nobody): the query
        // string and a header stand for the fields of a routed request.
        const listed = yield* call(server, "GET", `/v1/tables?note=${session}`, {
          token: admin,
          headers: { "user-agent": "jwt-listing", "x-service-client-version": session }
        })
        expect(listed.status).toBe(200)
        const signature = session.split(".")[2]!
        const sent = yield* awaitEntry(server, admin, (e) => e.user_agent === "jwt-query")
        expect(JSON.stringify(sent)).not.toContain(signature)
        expect(sent.headers["x-forwarded-session"]).toBe("[REDACTED]")
        expect(JSON.parse(sent.request_body)).toEqual({ sql: "SELECT '[REDACTED]' AS s" })
        const named = yield* awaitEntry(server, admin, (e) => e.user_agent === "jwt-listing")
        expect(named.url_query).toBe("note=%5BREDACTED%5D")
        expect(named.client_version).toBe("[REDACTED]")
        expect(JSON.stringify(named)).not.toContain(signature)
      })
    )
  }
)
