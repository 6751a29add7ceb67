/**
 * `GET /v1/docs`: the plain-text guide covers every endpoint of the OpenAPI document the
 * same server serves, each with its parameters, body fields and an example request.
 */
import { expect, layer } from "@effect/vitest"
import { Effect, Schema } from "effect"
import { bodyOf, call, freshDataDir, TestServer } from "../support/server.js"

const CLI = { "x-service-client": "cli", "x-service-client-version": "2.3.0" }
const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"]

const OpenApiPaths = Schema.Struct({
  paths: Schema.Record({
    key: Schema.String,
    value: Schema.Record({ key: Schema.String, value: Schema.Unknown })
  })
})

/** The guide's entry for `METHOD path`: from its first line to the blank line after it. */
const entryOf = (guide: string, heading: string) => {
  const lines = guide.split("\n")
  const at = lines.indexOf(heading)
  if (at === -1) return undefined
  const end = lines.findIndex((line, i) => i > at && line === "")
  return lines.slice(at, end === -1 ? undefined : end).join("\n")
}

layer(TestServer.layer(freshDataDir("docs")), { excludeTestServices: true, timeout: 120_000 })(
  "docs",
  (it) => {
    it.effect("the guide has every endpoint of the OpenAPI document, with an example", () =>
      Effect.gen(function* () {
        const server = yield* TestServer
        const document = yield* call(server, "GET", "/v1/openapi.json", { headers: CLI })
        expect(document.status).toBe(200)
        const operations = Object.entries(bodyOf(OpenApiPaths, document).paths).flatMap(
          ([path, item]) =>
            Object.keys(item)
              .filter((method) => METHODS.includes(method))
              .map((method) => `${method.toUpperCase()} ${path}`)
        )
        // More than a handful: the document is the whole API.
        expect(operations.length).toBeGreaterThan(40)

        const reply = yield* call(server, "GET", "/v1/docs", { headers: CLI })
        expect(reply.status).toBe(200)
        // Its text has "…" and "—": a browser without the charset shows "â€¦".
        expect(reply.headers.get("content-type")).toBe("text/plain; charset=utf-8")
        const guide = reply.text
        for (const operation of operations) {
          const entry = entryOf(guide, operation)
          expect(entry, operation).toBeDefined()
          expect(entry).toMatch(/\n {2}Example: curl -X [A-Z]+ "\$SLUICE_URL\//)
        }
        // Nothing listed that the document does not have.
        const headings = guide.split("\n").filter((line) => /^[A-Z]+ \//.test(line))
        expect([...headings].sort()).toEqual([...operations].sort())
      })
    )

    it.effect("entries show parameters, body fields, credential and a body example", () =>
      Effect.gen(function* () {
        const server = yield* TestServer
        const guide = (yield* call(server, "GET", "/v1/docs")).text
        expect(guide.split("\n")[0]).toBe("sluice API 1.0.0")

        const login = entryOf(guide, "POST /v1/auth/login")
        expect(login).toContain("  Credential: none")
        expect(login).toContain("    email: string, required")
        expect(login).toContain("    password: string, required")
        expect(login).toContain(
          `Example: curl -X POST "$SLUICE_URL/v1/auth/login" -H 'content-type: application/json' -d '{"email":"…","password":"…"}'`
        )

        const describe = entryOf(guide, "GET /v1/tables/{table}")
        expect(describe).toContain("  Credential: Authorization: Bearer <token>")
        expect(describe).toContain("    table (path): string, required")
        expect(describe).toContain("    database (query): string")
        expect(describe).toContain(`-H "authorization: Bearer $SLUICE_TOKEN"`)

        const poll = entryOf(guide, "POST /v1/auth/cli/device/token")
        expect(poll).toContain("authorization_pending")
        expect(poll).toMatch(/Responses: .*428/)
        expect(poll).toContain(`-d '{"device_code":"…"}'`)

        const create = entryOf(guide, "POST /v1/organizations")
        expect(create).toContain("    organization_name: string, required")
        expect(create).toMatch(/Responses: 201/)

        expect(entryOf(guide, "GET /v1/docs")).toContain("Credential: none")
      })
    )
  }
)
