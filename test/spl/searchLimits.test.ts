/**
 * The limits of `POST /v1/spl/search` (stage counting and its limits) over
 * 10,001 events sent through the event collector one second apart from 2026-01-01,
 * event i holding `n = i`; and cancel of a running search by its query id.
 */
import { expect, layer } from "@effect/vitest"
import { Effect, Fiber } from "effect"
import { SplSearchResult } from "../../domain/api/SplApi.js"
import { ErrorBody } from "../../domain/Errors.js"
import { eventually } from "../support/eventually.js"
import { installSplApp, post } from "../support/hec.js"
import {
  adminKeyOf,
  bodyOf,
  call,
  createDatabase,
  freshDataDir,
  TestServer
} from "../support/server.js"
import { sql } from "../tables/helpers.js"

const ADMIN = "spl-limits-admin@example.com"
const PASSWORD = "spl limits admin password"
const env = { SLUICE_ADMIN_EMAIL: ADMIN, SLUICE_ADMIN_PASSWORD: PASSWORD }

const T = 1767225600
const EVENTS = 10_001
/** All of them; from `T + 1` on, exactly 10,000. */
const all = { earliest: String(T), latest: String(T + 86_400) }
const allButFirst = { earliest: String(T + 1), latest: String(T + 86_400) }

const search = (body: Record<string, unknown>, query = "") =>
  Effect.flatMap(TestServer, (server) =>
    call(server, "POST", `/v1/spl/search${query}`, { token: adminKeyOf(server), body })
  )

const ok = (body: Record<string, unknown>) =>
  Effect.map(search(body), (reply) => {
    expect(reply.status, reply.text).toBe(200)
    return bodyOf(SplSearchResult, reply)
  })

const counts = (result: SplSearchResult) =>
  result.stages.map((s) => [s.command, s.output_rows, s.truncated])

layer(TestServer.layer(freshDataDir("spl-limits"), env), {
  excludeTestServices: true,
  timeout: 180_000
})("POST /v1/spl/search: limits and cancel", (it) => {
  it.effect("10,001 events: data stops at 10,000 and says truncated", () =>
    Effect.gen(function* () {
      const server = yield* TestServer
      yield* installSplApp(server, ADMIN, PASSWORD)
      const body = Array.from({ length: EVENTS }, (_, i) =>
        JSON.stringify({ time: T + i, event: { n: i } })
      ).join("")
      const sent = yield* post(server, "/services/collector", body, adminKeyOf(server))
      expect(sent.json).toEqual({ text: "Success", code: 0 })
      const result = yield* ok({ spl: "index=main", ...all })
      expect(result.rows).toBe(10_000)
      expect(result.data).toHaveLength(10_000)
      expect(result.raw_events).toHaveLength(10_000)
      expect(result.truncated).toBe(true)
      expect(counts(result)).toEqual([["search", 10_000, true]])
      // Newest first: the last event sent (n = 10000) leads.
      expect(result.data[0]).toMatchObject({ _raw: '{"n":10000}' })
    })
  )

  it.effect("exactly 10,000 rows are exact: not truncated", () =>
    Effect.gen(function* () {
      const result = yield* ok({ spl: "index=main", ...allButFirst })
      expect(result.rows).toBe(10_000)
      expect(result.truncated).toBe(false)
      expect(counts(result)).toEqual([["search", 10_000, false]])
      const headed = yield* ok({ spl: "index=main | head 10000", ...all })
      expect(headed.truncated).toBe(false)
      expect(counts(headed)).toEqual([
        ["search", 10_000, true],
        ["head", 10_000, false]
      ])
    })
  )

  it.effect("only the first 12 stages are measured; a carried count needs one before it", () =>
    Effect.gen(function* () {
      // Stage i (1 … 13) keeps 10,000 − 500·i rows; stage 14 is an eval.
      const heads = Array.from({ length: 13 }, (_, i) => `head ${10_000 - 500 * (i + 1)}`)
      const result = yield* ok({ spl: ["index=main", ...heads, "eval m=n"].join(" | "), ...all })
      expect(counts(result)).toEqual([
        ["search", 10_000, true],
        ...heads.map((_, i) => ["head", i < 11 ? 10_000 - 500 * (i + 1) : null, false]),
        ["eval", null, false]
      ])
      // A count over all stages of a short pipeline still counts every row.
      const stats = yield* ok({ spl: "index=main | where n >= 5000 | stats count", ...all })
      expect(stats.data).toEqual([{ count: 5001 }])
      expect(counts(stats)).toEqual([
        ["search", 10_000, true],
        ["where", 5001, false],
        ["stats", 1, false]
      ])
    })
  )

  it.effect("stages past the SQL budget of the counts are not measured: null from there on", () =>
    Effect.gen(function* () {
      // Forty eval columns make every later stage's SQL about 15 KB: the probes of all
      // twelve first stages cannot fit the 64 KiB budget together.
      const evals = Array.from(
        { length: 40 },
        (_, i) => `a${i}=if(n > ${i}, round(n * ${i} + n / ${i + 1}, 2), n - ${i})`
      ).join(", ")
      const heads = Array.from({ length: 11 }, (_, i) => `head ${9000 - 500 * i}`)
      const result = yield* ok({
        spl: ["index=main", `eval ${evals}`, ...heads].join(" | "),
        ...all
      })
      const expected = [10_000, 10_000, ...heads.map((_, i) => 9000 - 500 * i)]
      const firstNull = result.stages.findIndex((s) => s.output_rows === null)
      expect(firstNull).toBeGreaterThan(2)
      expect(firstNull).toBeLessThan(12)
      result.stages.forEach((stage, i) =>
        expect(stage.output_rows, String(i)).toBe(i < firstNull ? expected[i] : null)
      )
      expect(result.stages.slice(0, 2).map((s) => s.truncated)).toEqual([true, true])
    })
  )

  it.effect("a running search stops on POST /v1/query/cancel with its query id", () =>
    Effect.gen(function* () {
      const server = yield* TestServer
      const token = adminKeyOf(server)
      // `spl_events` of database `endless` is a view over a trillion generated events:
      // a search that has to read them all runs until it is cancelled.
      yield* createDatabase(server, "endless")
      yield* sql(
        server,
        "CREATE VIEW spl_events AS SELECT " +
          "fromUnixTimestamp64Milli(toInt64(1767225600000 + number % 1000), 'UTC') AS _time, " +
          "toString(number) AS _raw, 'h' AS host, 's' AS source, 'st' AS sourcetype, " +
          "'main' AS index, CAST('{}' AS JSON) AS __raw_data FROM numbers(1000000000000)",
        "endless"
      )
      const running = yield* Effect.fork(
        search(
          { spl: "cancelprobe | stats count", ...all, query_id: "spl-cancel-1" },
          "?database=endless"
        )
      )
      const cancel = (database: string) =>
        call(server, "POST", `/v1/query/cancel?database=${database}`, {
          token,
          body: { query_id: "spl-cancel-1" }
        })
      // The statement is registered for cancel before the engine runs it.
      yield* eventually(
        "the search to run in the engine",
        Effect.map(
          sql(
            server,
            "SELECT count() AS n FROM system.processes WHERE position(query, 'cancelprobe') > 0 " +
              "AND position(query, 'system.processes') = 0"
          ),
          (rows) => (Number(rows[0]?.n) > 0 ? true : undefined)
        )
      )
      // Its id is taken while it runs: another search or query with it is refused.
      const twin = yield* search(
        { spl: "index=main", ...all, query_id: "spl-cancel-1" },
        "?database=endless"
      )
      expect(twin.status).toBe(409)
      // Only the database that started it may cancel it: elsewhere the id is unknown.
      expect((yield* cancel("default")).status).toBe(404)
      const cancelled = yield* cancel("endless")
      expect(cancelled.status).toBe(200)
      expect(cancelled.json).toEqual({ cancelled: true })
      const reply = yield* Fiber.join(running)
      expect(reply.status).toBe(400)
      expect(bodyOf(ErrorBody, reply).message).toBe("The query was cancelled.")
    })
  )
})
