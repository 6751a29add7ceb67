/**
 * The request log as existing clients read it: real requests of every
 * kind (insert, describe, query, a failing query, a traced one, a CLI's, a user's, one
 * with secrets), then `GET /v1/logs` sent exactly as the command-line client sends it.
 * Every field is checked for presence, type and the value worked out from the request.
 */
import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Context, Effect, Schema } from "effect"
import { gzipSync } from "node:zlib"
import { ErrorBody } from "../../domain/Errors.js"
import { eventually } from "../support/eventually.js"
import { TestServer, adminKeyOf, bodyOf, call } from "../support/server.js"
import type { RunningServer } from "../support/server.js"

const ADMIN = "contract-admin@example.com"
const PASSWORD = "contract password 1234"
const env = { SLUICE_ADMIN_EMAIL: ADMIN, SLUICE_ADMIN_PASSWORD: PASSWORD }

// What the command-line client sends on every request.
const CLI_HEADERS = {
  "x-service-client": "cli",
  "x-service-client-version": "0.9.1",
  "user-agent": "sluice-cli/0.9.1 (linux; x64)",
  accept: "application/json"
}

/** Every field a client reads, with the JSON type a client expects, plus the two older names. */
const FIELDS: Record<string, string> = {
  id: "string",
  uuid: "string",
  trace_id: "string",
  span_id: "string",
  parent_span_id: "string",
  created_at: "string",
  date: "string",
  time: "string",
  level: "string",
  method: "string",
  host: "string",
  path: "string",
  pathname: "string",
  route: "string",
  url_query: "string",
  status_code: "integer",
  status: "integer",
  duration_ms: "integer",
  latency: "integer",
  handler_ms: "integer",
  app_overhead_ms: "integer",
  percentile: "integer|number|null",
  source: "string",
  user_agent: "string",
  client_version: "string",
  headers: "object",
  content_encoding: "string",
  request_size_bytes: "integer",
  response_size_bytes: "integer",
  database: "string",
  key_name: "string",
  user_id: "string",
  user_email: "string",
  organization_id: "string",
  organization_name: "string",
  cluster_id: "string",
  cluster_name: "string",
  organization: "string",
  cluster: "string",
  request_body: "string",
  message: "string|null",
  error: "string",
  error_code: "string",
  error_message: "string",
  error_hint: "string"
}

const typeOf = (value: unknown) =>
  value === null
    ? "null"
    : Number.isInteger(value)
      ? "integer"
      : Array.isArray(value)
        ? "array"
        : typeof value

/** The page as a client sees it: plain JSON objects, no schema of ours in between. */
const RawPage = Schema.Struct({
  logs: Schema.Array(Schema.Record({ key: Schema.String, value: Schema.Unknown })),
  has_more: Schema.Boolean,
  next_offset: Schema.NullOr(Schema.Number)
})
type RawEntry = (typeof RawPage.Type)["logs"][number]

const cliLogs = (server: RunningServer, token: string, query: string) =>
  Effect.map(call(server, "GET", `/v1/logs?${query}`, { token, headers: CLI_HEADERS }), (reply) => {
    expect(reply.status, reply.text).toBe(200)
    return bodyOf(RawPage, reply)
  })

const byAgent = (logs: ReadonlyArray<RawEntry>, agent: string) => {
  const found = logs.filter((entry) => entry.user_agent === agent)
  expect(found.map((e) => e.user_agent)).toEqual([agent])
  return found[0]!
}

const agentsOf = (page: typeof RawPage.Type) =>
  page.logs.map((entry) => String(entry.user_agent)).filter((ua) => ua.startsWith("contract-"))

const HEX16 = /^[0-9a-f]{16}$/
const TRACE = "0af7651916cd43dd8448eb211c80319c"
const PARENT = "b7ad6b7169203331"

layer(TestServer.layer(undefined, env), { excludeTestServices: true, timeout: 120_000 })(
  "request log contract",
  (it) => {
    // The requests, sent once by whichever test runs first.
    const arrange = Effect.gen(function* () {
      const server = yield* TestServer
      const admin = adminKeyOf(server)
      const sql = Context.get(server.context, SqlClient.SqlClient)
      const [org] = yield* sql<{ readonly id: string }>`select id from organizations`
      const [cluster] = yield* sql<{ readonly id: string }>`select id from clusters`
      const [user] = yield* sql<{ readonly id: string }>`select id from users`
      const sent = Date.now()

      // A gzip NDJSON batch as exporters send it, then a second batch that makes `ms` mixed.
      const batch = gzipSync('{"service":"api","ms":12}\n{"service":"web","ms":40}\n')
      const insert = yield* call(server, "POST", "/v1/tables/events?database=default", {
        token: admin,
        rawBody: batch,
        headers: {
          "content-type": "application/x-ndjson",
          "content-encoding": "gzip",
          "user-agent": "contract-insert"
        }
      })
      expect(insert.status, insert.text).toBe(200)
      const second = yield* call(server, "POST", "/v1/tables/events", {
        token: admin,
        rawBody: '{"service":"db","ms":"slow"}\n',
        headers: { "content-type": "application/x-ndjson", "user-agent": "contract-insert-2" }
      })
      expect(second.status, second.text).toBe(200)
      const describe = yield* call(server, "GET", "/v1/tables/events", {
        token: admin,
        headers: { "user-agent": "contract-describe" }
      })
      expect(describe.status, describe.text).toBe(200)

      const queryBody = { sql: "SELECT service, ms FROM events ORDER BY service" }
      const query = yield* call(server, "POST", "/v1/query?database=default", {
        token: admin,
        body: queryBody,
        headers: { "user-agent": "contract-query", traceparent: `00-${TRACE}-${PARENT}-01` }
      })
      expect(query.status, query.text).toBe(200)
      expect(query.headers.get("x-service-hints")).not.toBeNull()

      const explain = yield* call(server, "POST", "/v1/query", {
        token: admin,
        body: { sql: "EXPLAIN SELECT 1" },
        headers: { "user-agent": "contract-explain" }
      })
      expect(explain.status, explain.text).toBe(200)

      const failing = yield* call(server, "POST", "/v1/query", {
        token: admin,
        body: { sql: "SELECT * FROM missing_table" },
        headers: { "user-agent": "contract-fail" }
      })
      expect(failing.status).toBe(400)

      const cli = yield* call(server, "GET", "/v1/tables", { token: admin, headers: CLI_HEADERS })
      expect(cli.status).toBe(200)
      const oldCli = yield* call(server, "GET", "/v1/databases", {
        token: admin,
        headers: { "user-agent": "sluice/1.2.0" }
      })
      expect(oldCli.status).toBe(200)

      const secretBody = { sql: "SELECT 'rt_abcdefghijklmnop' AS k", password: "hunter2-pass" }
      const secret = yield* call(server, "POST", "/v1/query?access_token=query-secret", {
        token: admin,
        body: secretBody,
        headers: {
          "user-agent": "contract-secret",
          cookie: "session=cookie-secret",
          "x-amz-firehose-access-key": "firehose-secret"
        }
      })
      expect(secret.status, secret.text).toBe(200)

      const login = yield* call(server, "POST", "/v1/auth/login", {
        body: { email: ADMIN, password: PASSWORD }
      })
      const { token } = bodyOf(Schema.Struct({ token: Schema.String }), login)
      const asUser = yield* call(server, "GET", "/v1/keys?organization=default&cluster=default", {
        token,
        headers: { "user-agent": "contract-user" }
      })
      expect(asUser.status).toBe(200)
      const answered = Date.now()

      // Records are written in order: once the last is listed, all are.
      yield* eventually(
        "the last request's entry",
        Effect.map(cliLogs(server, admin, "user_agent=contract-user"), (page) =>
          page.logs.length === 1 ? true : undefined
        )
      )
      const page = yield* cliLogs(server, admin, "limit=50")
      return {
        server,
        admin,
        page,
        sent,
        answered,
        ids: { org: org!.id, cluster: cluster!.id, user: user!.id },
        replies: { insert, describe, query, failing, cli, secret, asUser },
        bodies: { batch, queryBody, secretBody }
      }
    }).pipe(Effect.cached, Effect.runSync)

    it.effect("every entry carries every field with its type; strings are never null", () =>
      Effect.gen(function* () {
        const { page } = yield* arrange
        expect(page.has_more).toBe(false)
        expect(page.next_offset).toBeNull()
        expect(page.logs.length).toBeGreaterThanOrEqual(9)
        for (const entry of page.logs) {
          const wrong = Object.entries(FIELDS)
            .filter(([name, type]) => !type.split("|").includes(typeOf(entry[name])))
            .map(([name, type]) => `${name}: ${typeOf(entry[name])}, not ${type}`)
          expect({ path: entry.path, wrong }).toEqual({ path: entry.path, wrong: [] })
          expect(Object.keys(entry).sort()).toEqual(Object.keys(FIELDS).sort())
        }
      })
    )

    it.effect("a traced query: ids, times, sizes, scope, headers and body", () =>
      Effect.gen(function* () {
        const { server, page, sent, answered, ids, replies, bodies } = yield* arrange
        const entry = byAgent(page.logs, "contract-query")
        expect(entry).toMatchObject({
          trace_id: TRACE,
          parent_span_id: PARENT,
          level: "success",
          method: "POST",
          host: new URL(server.url).host,
          path: "/v1/query",
          pathname: "/v1/query",
          route: "/v1/query",
          url_query: "database=default",
          status_code: 200,
          status: 200,
          percentile: null,
          source: "api",
          user_agent: "contract-query",
          client_version: "",
          content_encoding: "",
          request_size_bytes: Buffer.byteLength(JSON.stringify(bodies.queryBody)),
          response_size_bytes: Buffer.byteLength(replies.query.text),
          database: "default",
          key_name: "bootstrap admin",
          user_id: "",
          user_email: "",
          organization_id: ids.org,
          organization_name: "default",
          organization: "default",
          cluster_id: ids.cluster,
          cluster_name: "default",
          cluster: "default",
          request_body: JSON.stringify(bodies.queryBody),
          message: null,
          error: "",
          error_code: "",
          error_message: "",
          error_hint: ""
        })
        expect(entry.id).toMatch(HEX16)
        expect([entry.uuid, entry.span_id]).toEqual([entry.id, entry.id])
        expect(entry.id).not.toBe(PARENT)
        expect([entry.date, entry.time]).toEqual([entry.created_at, entry.created_at])
        const created = Date.parse(String(entry.created_at))
        expect(new Date(created).toISOString()).toBe(entry.created_at)
        expect(created).toBeGreaterThanOrEqual(sent)
        expect(created).toBeLessThanOrEqual(answered)
        expect(entry.latency).toBe(entry.duration_ms)
        expect(Number(entry.handler_ms) + Number(entry.app_overhead_ms)).toBe(entry.duration_ms)
        expect(entry.headers).toMatchObject({
          "user-agent": "contract-query",
          traceparent: `00-${TRACE}-${PARENT}-01`,
          "content-type": "application/json",
          authorization: "[REDACTED]",
          host: new URL(server.url).host
        })
      })
    )

    it.effect("an insert, a describe, a failing query, a CLI's request and a user's", () =>
      Effect.gen(function* () {
        const { server, admin, page, ids, replies, bodies } = yield* arrange
        expect(byAgent(page.logs, "contract-insert")).toMatchObject({
          method: "POST",
          path: "/v1/tables/events",
          route: "/v1/tables/{table}",
          url_query: "database=default",
          status_code: 200,
          content_encoding: "gzip",
          request_size_bytes: bodies.batch.length,
          response_size_bytes: Buffer.byteLength(replies.insert.text),
          // A streamed body is never captured.
          request_body: "",
          parent_span_id: "",
          database: "default"
        })
        expect(byAgent(page.logs, "contract-describe")).toMatchObject({
          method: "GET",
          path: "/v1/tables/events",
          route: "/v1/tables/{table}",
          url_query: "",
          status_code: 200,
          request_size_bytes: 0,
          request_body: ""
        })
        const error = bodyOf(ErrorBody, replies.failing)
        expect(error.error).toBe("bad_request")
        expect(byAgent(page.logs, "contract-fail")).toMatchObject({
          status_code: 400,
          status: 400,
          level: "warning",
          error: "bad_request",
          error_code: "bad_request",
          error_message: error.message,
          error_hint: error.hint,
          message: error.message,
          request_body: JSON.stringify({ sql: "SELECT * FROM missing_table" })
        })
        const cli = page.logs.filter(
          (e) => e.path === "/v1/tables" && e.user_agent === CLI_HEADERS["user-agent"]
        )
        expect(cli).toHaveLength(1)
        expect(cli[0]).toMatchObject({ source: "cli", client_version: "0.9.1", method: "GET" })
        // No x-service-client: the CLI's user agent names the source and the version.
        const oldCli = page.logs.filter((e) => e.user_agent === "sluice/1.2.0")
        expect(oldCli.map((e) => [e.path, e.source, e.client_version])).toEqual([
          ["/v1/databases", "cli", "1.2.0"]
        ])
        expect(byAgent(page.logs, "contract-user")).toMatchObject({
          user_id: ids.user,
          user_email: ADMIN,
          key_name: "",
          organization_id: ids.org,
          cluster_id: ids.cluster,
          source: "api"
        })
        // The CLI's own log reads are entries too (every read in this file is the CLI's).
        const reads = yield* eventually(
          "the CLI's log reads",
          Effect.map(cliLogs(server, admin, "paths=/v1/logs&limit=200"), (p) =>
            p.logs.length > 0 ? p.logs : undefined
          )
        )
        expect(reads.every((e) => e.source === "cli" && e.client_version === "0.9.1")).toBe(true)
      })
    )

    it.effect("secrets are redacted in the body, the query and the headers", () =>
      Effect.gen(function* () {
        const { admin, page } = yield* arrange
        const entry = byAgent(page.logs, "contract-secret")
        const logged = JSON.stringify(entry)
        for (const secret of [
          "hunter2-pass",
          "abcdefghijklmnop",
          "query-secret",
          "cookie-secret",
          "firehose-secret",
          admin
        ]) {
          expect(logged).not.toContain(secret)
        }
        expect(JSON.parse(String(entry.request_body))).toEqual({
          sql: "SELECT 'rt_[REDACTED]' AS k",
          password: "[REDACTED]"
        })
        expect(entry.url_query).toBe("access_token=%5BREDACTED%5D")
        expect(entry.headers).toMatchObject({
          authorization: "[REDACTED]",
          cookie: "[REDACTED]",
          "x-amz-firehose-access-key": "[REDACTED]"
        })
      })
    )

    it.effect("filters and search tokens find these requests", () =>
      Effect.gen(function* () {
        const { server, admin, sent } = yield* arrange
        const since = `start_time=${new Date(sent - 1000).toISOString()}&limit=200`
        const cases: ReadonlyArray<readonly [string, ReadonlyArray<string>]> = [
          ["search=type:insert", ["contract-insert-2", "contract-insert"]],
          ["search=type:describe", ["contract-describe"]],
          ["search=type:explain", ["contract-explain"]],
          ["search=type:select", ["contract-secret", "contract-fail", "contract-query"]],
          [
            "search=table:events",
            ["contract-query", "contract-describe", "contract-insert-2", "contract-insert"]
          ],
          ["search=table:missing_table", ["contract-fail"]],
          ["search=hints:any", ["contract-query"]],
          ["search=status:error type:select", ["contract-fail"]],
          ["search=origin:api%20type:select%20missing", ["contract-fail"]],
          ["levels=warning&paths=/v1/query", ["contract-fail"]],
          [
            "paths=/v1/tables/events&host=127.0.0.1",
            ["contract-describe", "contract-insert-2", "contract-insert"]
          ],
          ["host=no-such-host", []],
          ["log_databases=default&search=type:insert", ["contract-insert-2", "contract-insert"]],
          ["log_databases=other", []],
          // The selector every client sends is not a filter: the log stays the cluster's.
          ["database=default&search=type:describe", ["contract-describe"]],
          [
            "organization=default&cluster=default&database=default&search=type:explain",
            ["contract-explain"]
          ]
        ]
        for (const [query, expected] of cases) {
          const page = yield* cliLogs(server, admin, `${since}&${query}`)
          expect({ query, agents: agentsOf(page) }).toEqual({ query, agents: expected })
        }
        const origin = yield* cliLogs(server, admin, `${since}&search=origin:cli`)
        expect(origin.logs.length > 0 && origin.logs.every((e) => e.source === "cli")).toBe(true)
      })
    )

    it.effect("a filter that cannot be honoured is a 400 naming it", () =>
      Effect.gen(function* () {
        const { server, admin } = yield* arrange
        const cases: ReadonlyArray<readonly [string, string]> = [
          ["limit=201", "limit"],
          ["levels=debug", "levels"],
          ["min_duration_ms=soon", "min_duration_ms"],
          ["max_duration_ms=-5", "max_duration_ms"],
          ["search=status:broken", "status:broken"],
          ["search=origin:browser", "origin:browser"],
          ["search=type:delete%20events", "type:delete"],
          ["search=hints:maybe", "hints:maybe"],
          ["search=table:", "table:"],
          ["project=default", "'project'"]
        ]
        // A selected database must exist, as on every data endpoint.
        const missing = yield* call(server, "GET", "/v1/logs?database=nosuch", { token: admin })
        expect(missing.status, missing.text).toBe(404)
        expect(missing.json).toMatchObject({ message: expect.stringContaining("nosuch") })
        for (const [query, named] of cases) {
          const reply = yield* call(server, "GET", `/v1/logs?${query}`, {
            token: admin,
            headers: CLI_HEADERS
          })
          expect({ query, status: reply.status }).toEqual({ query, status: 400 })
          const body = bodyOf(ErrorBody, reply)
          expect(body.error).toBe("bad_request")
          expect(body.message).toContain(named)
        }
      })
    )
  }
)
