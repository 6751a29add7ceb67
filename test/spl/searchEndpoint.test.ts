/**
 * `POST /v1/spl/search` against the composed server, over events sent through the event
 * collector with fixed times. Epoch 1767225600 is 2026-01-01T00:00:00Z; a window of that
 * day is 48 buckets of 30 minutes. Every expected value is worked out by hand from the
 * events below and the rules of the search response and its stage counting.
 */
import { expect, layer } from "@effect/vitest"
import { Effect, Schema } from "effect"
import { CreatedApiKey } from "../../domain/api/KeysApi.js"
import { SplSearchResult } from "../../domain/api/SplApi.js"
import { ErrorBody } from "../../domain/Errors.js"
import { installSplApp, post } from "../support/hec.js"
import {
  adminKeyOf,
  bodyOf,
  call,
  createDatabase,
  freshDataDir,
  TestServer
} from "../support/server.js"

const ADMIN = "spl-search-admin@example.com"
const PASSWORD = "spl search admin password"
const env = { SLUICE_ADMIN_EMAIL: ADMIN, SLUICE_ADMIN_PASSWORD: PASSWORD }

const T = 1767225600
const DAY = 86_400
const day1 = { earliest: String(T), latest: String(T + DAY) }
const day2 = { earliest: String(T + DAY), latest: String(T + 2 * DAY) }
const day3 = { earliest: String(T + 2 * DAY), latest: String(T + 3 * DAY) }

const envelope = (seconds: number, host: string, event: Record<string, unknown>, index = "main") =>
  JSON.stringify({ time: seconds, host, source: "shop", sourcetype: "_json", index, event })

/** e1 … e6 of day 1 (e6 is on day 2), then ten events of day 2 with a `code` field. */
const EVENTS = [
  envelope(T + 60, "web-1", { status: 500, user: "alice", msg: "disk full" }),
  envelope(T + 120, "web-1", { status: 200, user: "bob" }),
  envelope(T + 1800, "web-2", { status: 500, user: "alice" }),
  envelope(T + 3600, "web-2", { status: 404, user: "carol" }, "audit"),
  envelope(T + 7200, "web-1", { status: 503 }),
  envelope(T + 90_000, "web-3", { status: 500, user: "dave" }),
  ...["a", "a", "a", "b", "b", "c", "d", "e", "f", "g"].map((code, i) =>
    envelope(T + DAY + 600 * (i + 1), "web-4", { code })
  ),
  // Day 3: nested objects, booleans and arrays.
  envelope(T + 2 * DAY + 60, "web-5", { k8s: { pod: "api-1" }, ok: true, tags: ["x", "y"] }),
  envelope(T + 2 * DAY + 120, "web-5", { k8s: { pod: "api-2" }, ok: false })
]

const search = (body: Record<string, unknown>, options: { token?: string; query?: string } = {}) =>
  Effect.flatMap(TestServer, (server) =>
    call(server, "POST", `/v1/spl/search${options.query ?? ""}`, {
      token: options.token ?? adminKeyOf(server),
      body
    })
  )

const ok = (body: Record<string, unknown>) =>
  Effect.map(search(body), (reply) => {
    expect(reply.status, reply.text).toBe(200)
    return bodyOf(SplSearchResult, reply)
  })

const refused = (status: number, body: Record<string, unknown>, options = {}) =>
  Effect.map(search(body, options), (reply) => {
    expect(reply.status, reply.text).toBe(status)
    expect(reply.text).not.toMatch(/\/work\/|node_modules|at .*\.ts:\d+/)
    return bodyOf(ErrorBody, reply)
  })

/** The 48 buckets of day 1, zero but for `counts` (bucket index → count). */
const day1Timeline = (counts: Record<number, number>) =>
  Array.from({ length: 48 }, (_, i) => ({
    time: new Date((T + i * 1800) * 1000).toISOString(),
    count: counts[i] ?? 0
  }))

const createKey = (permission: string) =>
  Effect.gen(function* () {
    const server = yield* TestServer
    const reply = yield* call(server, "POST", "/v1/keys", {
      token: adminKeyOf(server),
      body: { name: `${permission} key`, permission }
    })
    expect(reply.status).toBe(201)
    return bodyOf(Schema.Struct({ key: CreatedApiKey }), reply).key.token
  })

layer(TestServer.layer(freshDataDir("spl-search"), env), {
  excludeTestServices: true,
  timeout: 120_000
})("POST /v1/spl/search", (it) => {
  it.effect(
    "before the spl-app is installed (404), and before the first event (400): what to do",
    () =>
      Effect.gen(function* () {
        const error = yield* refused(404, { spl: "index=main", ...day1 })
        expect(error).toEqual({
          error: "not_found",
          message: expect.stringContaining("spl-app"),
          hint: expect.stringContaining("PUT /v1/apps/spl-app")
        })
        const server = yield* TestServer
        yield* installSplApp(server, ADMIN, PASSWORD)
        // No event yet, so no events table: the search says where events come from, not
        // the engine's complaint about the SQL it was compiled to.
        for (const spl of ["index=main | stats count by host", "index=main | fields *"]) {
          const empty = yield* refused(400, { spl, ...day1 })
          expect(empty).toEqual({
            error: "bad_request",
            message: "Database 'default' holds no events yet.",
            hint: expect.stringContaining("POST /services/collector/event")
          })
          expect(JSON.stringify(empty)).not.toMatch(/SELECT|__raw_data/)
        }
        const sent = yield* post(
          server,
          "/services/collector",
          EVENTS.join("\n"),
          adminKeyOf(server)
        )
        expect(sent.json).toEqual({ text: "Success", code: 0 })
      })
  )

  it.effect("stats by host: rows, stages, and the timeline of the filtered events", () =>
    Effect.gen(function* () {
      const result = yield* ok({ spl: "status>=500 | stats count by host | sort -count", ...day1 })
      // e1, e3, e5 match (e6 is outside the window): web-1 twice, web-2 once.
      expect(result.data).toEqual([
        { host: "web-1", count: 2 },
        { host: "web-2", count: 1 }
      ])
      expect(result.rows).toBe(2)
      expect(result.meta.map((m) => m.name).sort()).toEqual(["count", "host"])
      expect(result.spl).toBe("status>=500 | stats count by host | sort -count")
      expect(result.result_kind).toBe("statistics")
      expect(result.truncated).toBe(false)
      expect(result.raw_events).toEqual([])
      expect(result.field_statistics).toBeUndefined()
      expect(result.stages).toEqual([
        { command: "search", expression: "status>=500", output_rows: 3, truncated: false },
        { command: "stats", expression: "stats count by host", output_rows: 2, truncated: false },
        { command: "sort", expression: "sort -count", output_rows: 2, truncated: false }
      ])
      // 00:01 (e1) in bucket 0, 00:30 (e3) in bucket 1, 02:00 (e5) in bucket 4.
      expect(result.timeline).toEqual(day1Timeline({ 0: 1, 1: 1, 4: 1 }))
      expect(result.statistics.rows_read).toBeGreaterThan(0)
    })
  )

  it.effect(
    "an events search: newest first, raw events, earliest inclusive and latest exclusive",
    () =>
      Effect.gen(function* () {
        const result = yield* ok({ spl: "user=alice", ...day1 })
        expect(result.result_kind).toBe("events")
        expect(result.data).toEqual([
          {
            _time: "2026-01-01 00:30:00.000",
            _raw: '{"status":500,"user":"alice"}',
            host: "web-2",
            source: "shop",
            sourcetype: "_json",
            index: "main"
          },
          {
            _time: "2026-01-01 00:01:00.000",
            _raw: '{"status":500,"user":"alice","msg":"disk full"}',
            host: "web-1",
            source: "shop",
            sourcetype: "_json",
            index: "main"
          }
        ])
        expect(result.raw_events).toEqual(result.data)
        expect(result.timeline).toEqual(day1Timeline({ 0: 1, 1: 1 }))
        // [00:30, 01:00) holds e3 only: e4 at 01:00 is the exclusive end.
        const bounded = yield* ok({
          spl: "status=*",
          earliest: String(T + 1800),
          latest: String(T + 3600)
        })
        expect(bounded.data.map((row) => row["host"])).toEqual(["web-2"])
        expect(bounded.stages[0]).toMatchObject({ output_rows: 1 })
        // 30 minutes in buckets of 10 s: 180 is over the bound, so 1 minute, 30 of them.
        expect(bounded.timeline).toHaveLength(30)
        expect(bounded.timeline[0]).toEqual({ time: "2026-01-01T00:30:00.000Z", count: 1 })
      })
  )

  it.effect("a split timechart answers one column per series, one row per bucket", () =>
    Effect.gen(function* () {
      // The first four hours of day 1: e1 (web-1, 00:01) and e3 (web-2, 00:30) have status 500.
      const result = yield* ok({
        spl: "status=500 | timechart span=1h count by host",
        earliest: String(T),
        latest: String(T + 4 * 3600)
      })
      expect(result.meta.map((m) => m.name)).toEqual(["_time", "web-1", "web-2"])
      expect(result.data.map((row) => [row["web-1"], row["web-2"]])).toEqual([
        [1, 1],
        [0, 0],
        [0, 0],
        [0, 0]
      ])
      expect(result.rows).toBe(4)
    })
  )

  it.effect("earliest= and latest= in the search text set the window the timeline spans", () =>
    Effect.gen(function* () {
      // The text narrows day 1 to its first hour: 60 buckets of a minute; e1 falls in the
      // second (00:01), e3 in the 31st (00:30).
      const result = yield* ok({
        spl: `status=500 earliest=${T} latest=${T + 3600} | stats count`,
        ...day1
      })
      expect(result.data).toEqual([{ count: 2 }])
      expect(result.timeline).toEqual(
        Array.from({ length: 60 }, (_, i) => ({
          time: new Date((T + i * 60) * 1000).toISOString(),
          count: i === 1 || i === 30 ? 1 : 0
        }))
      )
    })
  )

  it.effect("a where/eval pipeline: each stage's count, eval carrying the count before it", () =>
    Effect.gen(function* () {
      const result = yield* ok({
        spl: "index=main | where status>=500 | eval kb=status/100 | head 1",
        ...day1
      })
      // main: e1, e2, e3, e5; status>=500: e1, e3, e5; head 1: the newest, e5.
      expect(result.stages.map((s) => [s.command, s.output_rows, s.truncated])).toEqual([
        ["search", 4, false],
        ["where", 3, false],
        ["eval", 3, false],
        ["head", 1, false]
      ])
      expect(result.data).toHaveLength(1)
      expect(result.data[0]).toMatchObject({ _time: "2026-01-01 02:00:00.000", kb: 5.03 })
      // The timeline counts the events the filters (search, where) keep.
      expect(result.timeline).toEqual(day1Timeline({ 0: 1, 1: 1, 4: 1 }))
    })
  )

  it.effect("field statistics over the whole filtered population", () =>
    Effect.gen(function* () {
      const result = yield* ok({
        spl: "status>=404 | head 1",
        ...day1,
        include_field_statistics: true
      })
      // Population e1, e3, e4 (audit), e5: four events, though head returns one.
      expect(result.data).toHaveLength(1)
      const both = ["audit", "main"]
      expect(result.field_statistics).toEqual([
        {
          field: "host",
          type: "string",
          total: 4,
          non_null: 4,
          coverage: 1,
          distinct: 2,
          top_values: [
            { value: "web-1", count: 2 },
            { value: "web-2", count: 2 }
          ],
          sources: both
        },
        {
          field: "index",
          type: "string",
          total: 4,
          non_null: 4,
          coverage: 1,
          distinct: 2,
          top_values: [
            { value: "main", count: 3 },
            { value: "audit", count: 1 }
          ],
          sources: both
        },
        {
          field: "msg",
          type: "string",
          total: 4,
          non_null: 1,
          coverage: 0.25,
          distinct: 1,
          top_values: [{ value: "disk full", count: 1 }],
          sources: ["main"]
        },
        {
          field: "source",
          type: "string",
          total: 4,
          non_null: 4,
          coverage: 1,
          distinct: 1,
          top_values: [{ value: "shop", count: 4 }],
          sources: both
        },
        {
          field: "sourcetype",
          type: "string",
          total: 4,
          non_null: 4,
          coverage: 1,
          distinct: 1,
          top_values: [{ value: "_json", count: 4 }],
          sources: both
        },
        {
          field: "status",
          type: "number",
          total: 4,
          non_null: 4,
          coverage: 1,
          distinct: 3,
          top_values: [
            { value: "500", count: 2 },
            { value: "404", count: 1 },
            { value: "503", count: 1 }
          ],
          sources: both
        },
        {
          field: "user",
          type: "string",
          total: 4,
          non_null: 3,
          coverage: 0.75,
          distinct: 2,
          top_values: [
            { value: "alice", count: 2 },
            { value: "carol", count: 1 }
          ],
          sources: both
        }
      ])
    })
  )

  it.effect(
    "field statistics: five most common values, exact distinct count, unseen fields left out",
    () =>
      Effect.gen(function* () {
        const result = yield* ok({ spl: "code=*", ...day2, include_field_statistics: true })
        const fields = result.field_statistics ?? []
        expect(fields.find((f) => f.field === "code")).toEqual({
          field: "code",
          type: "string",
          total: 10,
          non_null: 10,
          coverage: 1,
          distinct: 7,
          top_values: [
            { value: "a", count: 3 },
            { value: "b", count: 2 },
            { value: "c", count: 1 },
            { value: "d", count: 1 },
            { value: "e", count: 1 }
          ],
          sources: ["main"]
        })
        expect(fields.map((f) => f.field)).toEqual([
          "code",
          "host",
          "index",
          "source",
          "sourcetype"
        ])
      })
  )

  it.effect("explain: each stage's SQL and the whole statement, running nothing", () =>
    Effect.gen(function* () {
      const server = yield* TestServer
      // A database without spl_events: running anything there would fail.
      yield* createDatabase(server, "empty")
      const reply = yield* search(
        { spl: "status>=500 | stats count by host", ...day1, explain: true },
        { query: "?database=empty" }
      )
      expect(reply.status, reply.text).toBe(200)
      const result = bodyOf(SplSearchResult, reply)
      expect(result.explain?.stages.map((s) => [s.command, s.expression])).toEqual([
        ["search", "status>=500"],
        ["stats", "stats count by host"]
      ])
      expect(result.explain?.stages[0]?.sql).toContain("spl_events")
      expect(result.explain?.sql).toBe(result.explain?.stages[1]?.sql)
      expect(result.data).toEqual([])
      expect(result.timeline).toEqual([])
      expect(result.stages.map((s) => s.output_rows)).toEqual([null, null])
      const run = yield* refused(400, { spl: "status>=500", ...day1 }, { query: "?database=empty" })
      expect(run.message).toBe("Database 'empty' holds no events yet.")
    })
  )

  it.effect("a wildcard that backtracking would take hours over answers; /health too", () =>
    Effect.gen(function* () {
      const server = yield* TestServer
      // Backtracking grows as the 7th power of the name's length: 70 a's took 2.3 s, these
      // 200 would take about an hour, so answering at all is the test.
      const a200 = "a".repeat(200)
      const spl = `* | eval ${a200}=1 | fields a*a*a*a*a*a*a*b`
      for (const explain of [true, false]) {
        const [searched, health] = yield* Effect.all(
          [ok({ spl, ...day1, explain }), call(server, "GET", "/health")],
          { concurrency: "unbounded" }
        )
        expect(health.status).toBe(200)
        // e1 … e5 are in day 1; the pattern matches no field, so none is kept.
        if (!explain) {
          expect(searched.rows).toBe(5)
          expect(searched.data.flatMap((row) => Object.keys(row))).not.toContain(a200)
        }
      }
    })
  )

  it.effect("wildcards match the fields the events hold, not only those a stage names", () =>
    Effect.gen(function* () {
      const spl = "index=main | rename user* AS owner* | stats count by own*"
      const result = yield* ok({ spl, ...day1 })
      // Day 1 in main: e1 alice, e2 bob, e3 alice; e5 has no user (e4 is in audit).
      expect(result.data).toEqual([
        { owner: "alice", count: 2 },
        { owner: "bob", count: 1 }
      ])
      const explained = yield* ok({ spl, ...day1, explain: true })
      expect(explained.explain?.sql).toContain("`__raw_data`.`user`")
      const table = yield* ok({ spl: "index=main status=503 | table st*, us*", ...day1 })
      expect(table.data).toEqual([{ status: "503", user: null }])
    })
  )

  it.effect("an unsupported command is a 400 naming it and its position", () =>
    Effect.gen(function* () {
      const error = yield* refused(400, { spl: "status>=500 | transaction host", ...day1 })
      expect(error.error).toBe("bad_request")
      expect(error.message).toContain("transaction (position 14)")
    })
  )

  it.effect("bad time bounds are a 400 saying which", () =>
    Effect.gen(function* () {
      const notATime = yield* refused(400, { spl: "index=main", earliest: "yesterday" })
      expect(notATime.error).toBe("bad_request")
      const unknownUnit = yield* refused(400, { spl: "index=main", earliest: "-3fortnights" })
      expect(unknownUnit.message).toContain("earliest")
      const badSnap = yield* refused(400, { spl: "index=main", latest: "@d3" })
      expect(badSnap.message).toContain("latest")
      const empty = yield* refused(400, {
        spl: "index=main",
        earliest: String(T + 60),
        latest: String(T)
      })
      expect(empty.message).toContain("earliest")
    })
  )

  it.effect(
    "a read-only key searches; a write-only key may not; an unknown database is a 404",
    () =>
      Effect.gen(function* () {
        const reader = yield* createKey("read_only")
        const read = yield* search({ spl: "user=bob", ...day1 }, { token: reader })
        expect(read.status, read.text).toBe(200)
        expect(bodyOf(SplSearchResult, read).rows).toBe(1)
        const writer = yield* createKey("write_only")
        expect((yield* refused(403, { spl: "user=bob", ...day1 }, { token: writer })).error).toBe(
          "forbidden"
        )
        const missing = yield* refused(
          404,
          { spl: "user=bob", ...day1 },
          { query: "?database=nope" }
        )
        expect(missing.error).toBe("not_found")
        // A key's database scope: the search runs in the selected database only.
        yield* createDatabase(yield* TestServer, "other")
        const elsewhere = yield* refused(
          400,
          { spl: "user=bob", ...day1 },
          { query: "?database=other" }
        )
        expect(elsewhere.message).toBe("Database 'other' holds no events yet.")
      })
  )

  it.effect("a malformed body is a 400 in the error shape", () =>
    Effect.gen(function* () {
      for (const body of [
        {},
        { spl: 42 },
        { spl: "index=main", earliest: 1767225600 },
        { spl: "index=main", query_id: "has spaces" },
        { spl: "index=main", include_field_statistics: "yes" }
      ]) {
        const error = yield* refused(400, body)
        expect(error.error, JSON.stringify(body)).toBe("bad_request")
      }
    })
  )

  it.effect("a user session names organization and cluster; a key may not leave its scope", () =>
    Effect.gen(function* () {
      const server = yield* TestServer
      const login = yield* call(server, "POST", "/v1/auth/login", {
        body: { email: ADMIN, password: PASSWORD }
      })
      const session = bodyOf(Schema.Struct({ token: Schema.String }), login).token
      const asUser = yield* search(
        { spl: "user=carol", ...day1 },
        { token: session, query: "?organization=default&cluster=default&database=default" }
      )
      expect(asUser.status, asUser.text).toBe(200)
      expect(bodyOf(SplSearchResult, asUser).data.map((row) => row["host"])).toEqual(["web-2"])
      const outside = yield* refused(
        403,
        { spl: "user=carol", ...day1 },
        {
          query: "?organization=elsewhere"
        }
      )
      expect(outside.error).toBe("forbidden")
    })
  )

  it.effect("field statistics of nested, boolean and array fields", () =>
    Effect.gen(function* () {
      const result = yield* ok({ spl: "host=web-5", ...day3, include_field_statistics: true })
      const fields = result.field_statistics ?? []
      expect(fields.find((f) => f.field === "k8s.pod")).toMatchObject({
        type: "string",
        total: 2,
        non_null: 2,
        distinct: 2,
        top_values: [
          { value: "api-1", count: 1 },
          { value: "api-2", count: 1 }
        ]
      })
      expect(fields.find((f) => f.field === "ok")).toMatchObject({
        type: "boolean",
        non_null: 2,
        distinct: 2
      })
      expect(fields.find((f) => f.field === "tags")).toMatchObject({
        non_null: 1,
        coverage: 0.5,
        distinct: 1
      })
    })
  )
})
