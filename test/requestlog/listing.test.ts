/**
 * `GET /v1/logs`: every filter, newest-first paging, the caller's scope only, bad input,
 * and retention. Entries with known contents are written straight to the store for a
 * second cluster, five days in the past, so live requests never mix into the window.
 */
import { expect, layer } from "@effect/vitest"
import { Context, Effect, Redacted, Schema } from "effect"
import { LogsFilter, LogsPage } from "../../domain/api/LogsApi.js"
import { Authorization } from "../../domain/Authorization.js"
import { Authenticator } from "../../domain/Identity.js"
import { RequestLogs } from "../../domain/RequestLogs.js"
import { levelOf, LogRecord } from "../../src/requestlog/LogRecord.js"
import { RequestLogStore } from "../../src/requestlog/RequestLogStore.js"
import { TestServer, adminKeyOf, call } from "../support/server.js"
import { listLogs } from "./helpers.js"
import { otherCluster } from "../support/otherCluster.js"

const base = Math.floor(Date.now() / 60_000) * 60_000 - 5 * 86_400_000
const at = (i: number) => new Date(base + i * 60_000)
const iso = (i: number) => at(i).toISOString()

// Durations as stored; entries show them rounded half up (7.5 → 8, 0.4 → 0). Fixture 6
// lies after the window the original six are read in.
const fixtures = [
  {
    method: "GET",
    path: "/v1/tables",
    status: 200,
    source: "api",
    ua: "curl/8",
    host: "localhost:8080",
    ms: 3,
    db: "default",
    type: "",
    tables: [],
    hints: false
  },
  {
    method: "POST",
    path: "/v1/tables/events",
    status: 200,
    source: "cli",
    ua: "sluice-cli/1.0",
    host: "Sluice.Example.com",
    ms: 12.4,
    db: "default",
    type: "insert",
    tables: ["events"],
    hints: false
  },
  {
    method: "POST",
    path: "/v1/query",
    status: 400,
    source: "ui",
    ua: "Mozilla/5.0",
    host: "sluice.example.com:443",
    ms: 7.5,
    db: "analytics",
    type: "select",
    tables: ["events", "users"],
    hints: false
  },
  {
    method: "DELETE",
    path: "/v1/tables/events",
    status: 403,
    source: "api",
    ua: "curl/8",
    host: "localhost:8080",
    ms: 0.4,
    db: "default",
    type: "",
    tables: ["events"],
    hints: false
  },
  {
    method: "GET",
    path: "/v1/databases",
    status: 500,
    source: "api",
    ua: "curl/8",
    host: "127.0.0.1:8080",
    ms: 250,
    db: null,
    type: "",
    tables: [],
    hints: false
  },
  {
    method: "POST",
    path: "/v1/query",
    status: 200,
    source: "cli",
    ua: "sluice-cli/1.0",
    host: "localhost:8080",
    ms: 40,
    db: "analytics",
    type: "select",
    tables: ["users"],
    hints: true
  },
  {
    method: "GET",
    path: "/v1/tables/users",
    status: 200,
    source: "api",
    ua: "curl/8",
    host: "localhost:8080",
    ms: 1,
    db: "default",
    type: "describe",
    tables: ["users"],
    hints: false
  }
] as const

const errors: Record<number, readonly [string, string]> = {
  400: ["bad_request", "Unknown table 'nope'."],
  403: ["forbidden", "An API key with read_only permission may not delete tables."],
  500: ["internal", "Internal error (trace id 1234)."]
}

const idOf = (i: number) => String(i).repeat(16)

// The window that holds exactly the fixtures, and the order they come back in.
const window = `start_time=${iso(0)}&end_time=${iso(5)}`
const wideWindow = `start_time=${iso(0)}&end_time=${iso(6)}`
const ids = (page: { readonly logs: ReadonlyArray<{ readonly id: string }> }) =>
  page.logs.map((entry) => entry.id)
const expectIds = (...indexes: ReadonlyArray<number>) => indexes.map(idOf)

layer(TestServer.layer(), { excludeTestServices: true, timeout: 120_000 })("GET /v1/logs", (it) => {
  // Arranged once, by whichever test runs first.
  const arrange = Effect.gen(function* () {
    const server = yield* TestServer
    const other = yield* otherCluster(server, "other")
    const store = Context.get(server.context, RequestLogStore)
    yield* store.write(
      fixtures.map((f, i) => {
        const error = errors[f.status]
        return LogRecord.make({
          id: idOf(i),
          trace_id: idOf(i).repeat(2),
          parent_span_id: "",
          created_at: at(i),
          organization_id: other.organization.id,
          cluster_id: other.cluster.id,
          organization: "other",
          cluster: "other",
          method: f.method,
          host: f.host,
          path: f.path,
          route: f.path,
          status_code: f.status,
          level: levelOf(f.status),
          source: f.source,
          duration_ms: f.ms,
          handler_ms: f.ms / 2,
          user_agent: f.ua,
          client_version: null,
          headers: JSON.stringify({ host: f.host }),
          content_encoding: "",
          request_size_bytes: 0,
          response_size_bytes: 10,
          database: f.db,
          key_name: "other admin",
          user_id: null,
          user_email: null,
          url_query: null,
          request_body: null,
          error_code: error?.[0] ?? null,
          error_message: error?.[1] ?? null,
          error_hint: error === undefined ? null : "a hint",
          request_type: f.type,
          tables: f.tables,
          has_hints: f.hints
        })
      })
    )
    return { server, other, store }
  }).pipe(Effect.cached, Effect.runSync)

  it.effect("newest first, with every field, in an inclusive time window", () =>
    Effect.gen(function* () {
      const { server, other } = yield* arrange
      const all = yield* listLogs(server, other.token, window)
      expect(ids(all)).toEqual(expectIds(5, 4, 3, 2, 1, 0))
      expect(all).toMatchObject({ has_more: false, next_offset: null })
      expect(all.logs[1]).toMatchObject({
        id: idOf(4),
        created_at: iso(4),
        level: "error",
        database: "",
        duration_ms: 250,
        handler_ms: 125,
        app_overhead_ms: 125,
        error: "internal",
        error_code: "internal",
        error_message: errors[500]![1],
        error_hint: "a hint",
        message: errors[500]![1]
      })
      expect(all.logs[3]).toMatchObject({ duration_ms: 8, latency: 8, error: "bad_request" })
      expect(all.logs[0]).toMatchObject({ error: "", error_code: "", message: null })
      const inner = yield* listLogs(server, other.token, `start_time=${iso(1)}&end_time=${iso(3)}`)
      expect(ids(inner)).toEqual(expectIds(3, 2, 1))
    })
  )

  it.effect("methods, status_codes, sources and user_agent filters", () =>
    Effect.gen(function* () {
      const { server, other } = yield* arrange
      const cases: ReadonlyArray<readonly [string, ReadonlyArray<number>]> = [
        ["methods=post", [5, 2, 1]],
        ["methods=GET,DELETE", [4, 3, 0]],
        ["status_codes=400,500", [4, 2]],
        ["status_codes=201", []],
        // A class: every code of its hundred (the seeded 400 and 403; the 500).
        ["status_codes=4xx", [3, 2]],
        ["status_codes=5XX,400", [4, 2]],
        ["status_codes=3xx", []],
        ["sources=cli", [5, 1]],
        ["sources=ui,api", [4, 3, 2, 0]],
        ["user_agent=curl/8", [4, 3, 0]],
        ["user_agent=curl", []],
        ["methods=POST&sources=cli&status_codes=200", [5, 1]]
      ]
      for (const [query, expected] of cases) {
        const page = yield* listLogs(server, other.token, `${window}&${query}`)
        expect({ query, ids: ids(page) }).toEqual({ query, ids: expectIds(...expected) })
      }
    })
  )

  it.effect("search looks in id, method, path, status, source, user agent and errors", () =>
    Effect.gen(function* () {
      const { server, other } = yield* arrange
      const cases: ReadonlyArray<readonly [string, ReadonlyArray<number>]> = [
        [idOf(3).slice(0, 6), [3]],
        ["delete", [3]],
        ["/v1/databases", [4]],
        ["403", [3]],
        ["ui", [5, 2, 1]], // 2 by its source, the others by "sluice-cli"
        ["mozilla", [2]],
        ["UNKNOWN TABLE", [2]],
        ["forbidden", [3]],
        ["read_only", [3]],
        ["100%", []]
      ]
      for (const [search, expected] of cases) {
        const page = yield* listLogs(
          server,
          other.token,
          `${window}&search=${encodeURIComponent(search)}`
        )
        expect({ search, ids: ids(page) }).toEqual({ search, ids: expectIds(...expected) })
      }
    })
  )

  it.effect("levels, host, paths, duration bounds and log_databases filters", () =>
    Effect.gen(function* () {
      const { server, other } = yield* arrange
      const cases: ReadonlyArray<readonly [string, ReadonlyArray<number>]> = [
        ["levels=success", [6, 5, 1, 0]],
        ["levels=warning,error", [4, 3, 2]],
        ["levels=error", [4]],
        ["host=example.COM", [2, 1]],
        ["host=localhost", [6, 5, 3, 0]],
        ["host=8080", [6, 5, 4, 3, 0]],
        ["host=", [6, 5, 4, 3, 2, 1, 0]],
        ["paths=/v1/query", [5, 2]],
        ["paths=/v1/query,/v1/databases", [5, 4, 2]],
        ["paths=/v1/tables", [0]],
        ["paths=/v1/TABLES", []],
        ["min_duration_ms=8", [5, 4, 2, 1]],
        ["min_duration_ms=0", [6, 5, 4, 3, 2, 1, 0]],
        ["max_duration_ms=3", [6, 3, 0]],
        ["min_duration_ms=8&max_duration_ms=12", [2, 1]],
        ["max_duration_ms=0", [3]],
        ["log_databases=analytics", [5, 2]],
        ["log_databases=default,analytics", [6, 5, 3, 2, 1, 0]],
        ["log_databases=nope", []],
        ["levels=success&host=localhost&paths=/v1/query", [5]]
      ]
      for (const [query, expected] of cases) {
        const page = yield* listLogs(server, other.token, `${wideWindow}&${query}`)
        expect({ query, ids: ids(page) }).toEqual({ query, ids: expectIds(...expected) })
      }
    })
  )

  it.effect("search tokens, alone and mixed with free text", () =>
    Effect.gen(function* () {
      const { server, other } = yield* arrange
      const cases: ReadonlyArray<readonly [string, ReadonlyArray<number>]> = [
        ["status:error", [4, 3, 2]],
        ["status:success", [6, 5, 1, 0]],
        ["status:success,error", [6, 5, 4, 3, 2, 1, 0]],
        ["origin:cli", [5, 1]],
        ["origin:ui,api", [6, 4, 3, 2, 0]],
        ["type:select", [5, 2]],
        ["type:insert", [1]],
        ["type:describe", [6]],
        ["type:select,describe", [6, 5, 2]],
        ["TYPE:Insert", [1]],
        ["table:events", [3, 2, 1]],
        ["table:users", [6, 5, 2]],
        ["table:users,events", [6, 5, 3, 2, 1]],
        ["table:Events", []],
        ["hints:any", [5]],
        ["hints:none", [6, 4, 3, 2, 1, 0]],
        ["status:error type:select", [2]],
        ["type:select status:success hints:any", [5]],
        ["origin:cli query", [5]],
        ["type:select  unknown   table", [2]],
        ["status:error forbidden", [3]],
        ["table:events origin:api", [3]],
        ["type:select type:insert", [5, 2, 1]],
        ["https://example.com", []]
      ]
      for (const [search, expected] of cases) {
        const page = yield* listLogs(
          server,
          other.token,
          `${wideWindow}&search=${encodeURIComponent(search)}`
        )
        expect({ search, ids: ids(page) }).toEqual({ search, ids: expectIds(...expected) })
      }
    })
  )

  it.effect("pages with limit and offset; next_offset is null on the last page", () =>
    Effect.gen(function* () {
      const { server, other } = yield* arrange
      const pages = []
      for (const offset of [0, 2, 4]) {
        pages.push(yield* listLogs(server, other.token, `${window}&limit=2&offset=${offset}`))
      }
      expect(pages.map((p) => [ids(p), p.has_more, p.next_offset])).toEqual([
        [expectIds(5, 4), true, 2],
        [expectIds(3, 2), true, 4],
        [expectIds(1, 0), false, null]
      ])
      const beyond = yield* listLogs(server, other.token, `${window}&offset=10`)
      expect(beyond).toMatchObject({ logs: [], has_more: false, next_offset: null })
      const exact = yield* listLogs(server, other.token, `${window}&limit=6`)
      expect([exact.logs.length, exact.has_more, exact.next_offset]).toEqual([6, false, null])
    })
  )

  it.effect("each caller sees only its own organization and cluster", () =>
    Effect.gen(function* () {
      const { server, other } = yield* arrange
      const admin = adminKeyOf(server)
      const mine = yield* listLogs(server, admin, window)
      expect(mine.logs).toEqual([])
      yield* call(server, "GET", "/v1/keys", {
        token: admin,
        headers: { "user-agent": "default-only" }
      })
      const theirs = yield* listLogs(server, other.token, "limit=200")
      expect(theirs.logs.length).toBeGreaterThanOrEqual(6)
      expect(theirs.logs.every((e) => e.cluster === "other" && e.organization === "other")).toBe(
        true
      )
      expect(theirs.logs.some((e) => e.user_agent === "default-only")).toBe(false)
      const foreign = yield* call(server, "GET", "/v1/logs?cluster=other", { token: admin })
      expect(foreign.status).toBe(403)
    })
  )

  it.effect("bad parameters are 400 with the error shape", () =>
    Effect.gen(function* () {
      const { server, other } = yield* arrange
      const cases: ReadonlyArray<readonly [string, string]> = [
        ["limit=500", "limit"],
        ["limit=201", "limit"],
        ["limit=0", "limit"],
        ["limit=ten", "limit"],
        ["offset=-1", "offset"],
        ["start_time=yesterday", "start_time"],
        ["end_time=2026-13-45T00:00:00Z", "end_time"],
        ["status_codes=ok", "status_codes"],
        ["status_codes=4zz", "status_codes"],
        ["status_codes=6xx", "status_codes"],
        ["sources=web", "sources"],
        ["levels=fatal", "levels"],
        ["levels=", "levels"],
        ["min_duration_ms=-1", "min_duration_ms"],
        ["min_duration_ms=fast", "min_duration_ms"],
        ["max_duration_ms=1.5", "max_duration_ms"],
        ["level=error", "'level'"],
        ["status=error&origin=cli", "'status', 'origin'"],
        ["search=status:failed", "status:"],
        ["search=origin:web", "origin:"],
        ["search=type:update", "type:"],
        ["search=table:", "table:"],
        ["search=hints:some", "hints:"],
        ["search=boom%20type:select,drop", "type:select,drop"]
      ]
      for (const [query, names] of cases) {
        const reply = yield* call(server, "GET", `/v1/logs?${query}`, { token: other.token })
        expect({ query, status: reply.status }).toEqual({ query, status: 400 })
        expect(reply.json).toMatchObject({
          error: "bad_request",
          message: expect.stringContaining(names),
          hint: expect.any(String)
        })
      }
      const limit200 = yield* call(server, "GET", `/v1/logs?limit=200`, { token: other.token })
      expect(limit200.status).toBe(200)
    })
  )

  it.effect("the RequestLogs capability answers the page HTTP answers, without HTTP", () =>
    Effect.gen(function* () {
      const { server, other } = yield* arrange
      const caller = yield* Context.get(server.context, Authenticator).authenticate(
        Redacted.make(other.token)
      )
      const scope = yield* Context.get(server.context, Authorization).clusterScope(
        caller,
        "read",
        {}
      )
      const logs = Context.get(server.context, RequestLogs)
      const filter = (query: string) =>
        Schema.decodeUnknownSync(LogsFilter)(Object.fromEntries(new URLSearchParams(query)))
      for (const query of [window, `${wideWindow}&limit=2&offset=1`, `${window}&search=users`]) {
        const direct = yield* logs.list(scope, filter(query))
        expect(Schema.encodeSync(LogsPage)(direct)).toEqual(
          Schema.encodeSync(LogsPage)(yield* listLogs(server, other.token, query))
        )
      }
      expect(ids(yield* logs.list(scope, filter(window)))).toEqual(expectIds(5, 4, 3, 2, 1, 0))
      const refused = yield* Effect.flip(logs.list(scope, filter("search=status:maybe")))
      expect(refused).toMatchObject({
        _tag: "BadRequest",
        message: expect.stringContaining("status:")
      })
    })
  )

  it.effect("retention deletes entries older than the configured days", () =>
    Effect.gen(function* () {
      const { server, other, store } = yield* arrange
      // 30 days (the default) measured from a fixed "now" 33 days after the fixtures:
      // the three oldest fall outside, the rest stay.
      const now = new Date(at(2).getTime() + 30 * 86_400_000 + 30_000)
      const deleted = yield* store.prune(now, 30)
      expect(deleted).toBe(3)
      const left = yield* listLogs(server, other.token, window)
      expect(ids(left)).toEqual(expectIds(5, 4, 3))
    })
  )
})
