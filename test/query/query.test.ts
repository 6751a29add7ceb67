/**
 * SQL over HTTP: every format and content type, the JSON shape, the query id header,
 * read-only refusals, limits, the missing-table hint, and cancel with its scope.
 */
import { expect, layer } from "@effect/vitest"
import { Effect, Fiber, Schema } from "effect"
import { TestServer, adminKeyOf, call, createDatabase, bodyOf } from "../support/server.js"
import { otherCluster } from "../support/otherCluster.js"
import { eventually } from "../support/eventually.js"
import { onClickHouseServer } from "../support/engineSettings.js"
import { sql } from "../tables/helpers.js"
import { ErrorBody } from "../../domain/Errors.js"

const env = {
  SLUICE_QUERY_MAX_SQL_BYTES: "4096",
  SLUICE_QUERY_TIMEOUT_SECONDS: "3",
  SLUICE_QUERY_MAX_RESULT_BYTES: "1000000"
}

/** A query that runs until the time limit unless cancelled; `name` finds it in the engine. */
const longQuery = (name: string) =>
  `SELECT count() AS ${name} FROM numbers(1e11) WHERE sipHash64(number) = 0`

/** How many statements whose SQL holds `text` the default cluster's engine is running. */
const runningInEngine = (text: string) =>
  Effect.flatMap(TestServer, (server) =>
    sql(
      server,
      `SELECT count() AS n FROM system.processes ` +
        `WHERE position(query, '${text}') > 0 AND position(query, 'system.processes') = 0`
    )
  ).pipe(Effect.map((rows) => Number(rows[0]?.n)))

/** Waits until the engine runs `text`: the query behind it is registered for cancel by then. */
const awaitRunning = (text: string) =>
  eventually(
    `'${text}' to run in the engine`,
    Effect.map(runningInEngine(text), (n) => (n > 0 ? true : undefined))
  )

const query = (body: Record<string, unknown>, path = "/v1/query") =>
  Effect.flatMap(TestServer, (server) =>
    call(server, "POST", path, { token: adminKeyOf(server), body })
  )

const refused = (sql: string, status = 400) =>
  Effect.gen(function* () {
    const reply = yield* query({ sql })
    expect(reply.status, sql).toBe(status)
    expect(reply.json, sql).toMatchObject({ message: expect.any(String), hint: expect.any(String) })
    return bodyOf(ErrorBody, reply)
  })

layer(TestServer.layer(undefined, env), { excludeTestServices: true, timeout: 120_000 })(
  "POST /v1/query",
  (it) => {
    it.effect("answers JSON with exactly meta, data, rows, statistics and hints", () =>
      Effect.gen(function* () {
        const reply = yield* query({
          sql: "SELECT number AS n, toString(number) AS s FROM numbers(3)"
        })
        expect(reply.status).toBe(200)
        expect(reply.headers.get("content-type")).toBe("application/json; charset=utf-8")
        expect(reply.headers.get("x-service-query-id")).toMatch(/^[0-9a-f-]{36}$/)
        const body = bodyOf(Schema.Record({ key: Schema.String, value: Schema.Unknown }), reply)
        expect(Object.keys(body).sort()).toEqual(["data", "hints", "meta", "rows", "statistics"])
        expect(body.meta).toEqual([
          { name: "n", type: "UInt64" },
          { name: "s", type: "String" }
        ])
        expect(body.data).toEqual([
          { n: "0", s: "0" },
          { n: "1", s: "1" },
          { n: "2", s: "2" }
        ])
        expect(body.rows).toBe(3)
        expect(Object.keys(body.statistics as object).sort()).toEqual([
          "bytes_read",
          "elapsed",
          "rows_read"
        ])
        // What the engine read to answer: the three numbers of `numbers(3)`, 8 bytes each.
        expect(body.statistics).toMatchObject({ rows_read: 3, bytes_read: 24 })
        expect(body.hints).toEqual([])
      })
    )

    it.effect("serves every format with its content type", () =>
      Effect.gen(function* () {
        const sql = "SELECT number AS n FROM numbers(2)"
        const cases: ReadonlyArray<readonly [string, string, (text: string) => boolean]> = [
          ["JSONCompact", "application/json", (t) => JSON.parse(t).data.length === 2],
          ["JSONEachRow", "application/x-ndjson", (t) => t === '{"n":"0"}\n{"n":"1"}\n'],
          ["JSONEachRowWithProgress", "application/x-ndjson", (t) => t.includes('"row"')],
          ["CSV", "text/csv", (t) => t === "0\n1\n"],
          ["CSVWithNames", "text/csv", (t) => t === '"n"\n0\n1\n'],
          ["TSV", "text/tab-separated-values", (t) => t === "0\n1\n"],
          ["TSVWithNames", "text/tab-separated-values", (t) => t === "n\n0\n1\n"],
          ["TabSeparated", "text/tab-separated-values", (t) => t === "0\n1\n"]
        ]
        for (const [format, type, check] of cases) {
          const reply = yield* query({ sql, format })
          expect(reply.status, format).toBe(200)
          expect(reply.headers.get("content-type"), format).toBe(`${type}; charset=utf-8`)
          expect(check(reply.text), `${format}: ${reply.text}`).toBe(true)
        }
      })
    )

    it.effect("a table written by several inserts reads back as one result in every format", () =>
      Effect.gen(function* () {
        const server = yield* TestServer
        // Three inserts make three parts, so the engine answers in several blocks.
        for (const n of [1, 2, 3]) {
          const inserted = yield* call(server, "POST", "/v1/tables/blocks", {
            token: adminKeyOf(server),
            body: [{ b: n }, { b: n + 10 }]
          })
          expect(inserted.status).toBe(200)
        }
        const sql = "SELECT b FROM blocks"
        const json = yield* query({ sql, format: "JSON" })
        expect(json.status).toBe(200)
        expect(json.json).toMatchObject({ rows: 6 })
        const compact = yield* query({ sql, format: "JSONCompact" })
        expect(compact.json).toMatchObject({ rows: 6 })
        for (const format of ["CSVWithNames", "TSVWithNames"]) {
          const lines = (yield* query({ sql, format })).text.trim().split("\n")
          expect(lines, format).toHaveLength(7)
          expect(
            lines.filter((line) => line.replaceAll('"', "") === "b"),
            format
          ).toHaveLength(1)
        }
        const progress = (yield* query({ sql, format: "JSONEachRowWithProgress" })).text
        const records = progress
          .trim()
          .split("\n")
          .map((line) => JSON.parse(line) as object)
        expect(records.filter((r) => "meta" in r)).toHaveLength(1)
        expect(records.filter((r) => "row" in r)).toHaveLength(6)
        for (const format of ["JSONEachRow", "CSV", "TSV", "TabSeparated"]) {
          expect((yield* query({ sql, format })).text.trim().split("\n"), format).toHaveLength(6)
        }
      })
    )

    it.effect("JSONEachRowWithProgress over many engine blocks has one meta line", () =>
      Effect.gen(function* () {
        // Several of the engine's blocks (about 65k rows each), so it streams in pieces.
        const reply = yield* query({
          sql: "SELECT number FROM numbers(300000) WHERE number % 15 = 0",
          format: "JSONEachRowWithProgress"
        })
        expect(reply.status).toBe(200)
        const records = reply.text
          .trim()
          .split("\n")
          .map((line) => JSON.parse(line) as { readonly row?: { readonly number: string } })
        expect(records.filter((r) => "meta" in r)).toHaveLength(1)
        // Before every row (a ClickHouse server sends a progress line first).
        expect(records.findIndex((r) => "meta" in r)).toBeLessThan(
          records.findIndex((r) => "row" in r)
        )
        const rows = records.flatMap((r) => (r.row === undefined ? [] : [Number(r.row.number)]))
        expect(rows).toHaveLength(20000)
        expect(rows[19999]).toBe(299985)
      })
    )

    it.effect("returns the caller's query id, and refuses an unsupported format", () =>
      Effect.gen(function* () {
        const reply = yield* query({ sql: "SELECT 1", query_id: "my-query-1" })
        expect(reply.headers.get("x-service-query-id")).toBe("my-query-1")
        const badId = yield* query({ sql: "SELECT 1", query_id: "two\nlines" })
        expect(badId.status).toBe(400)
        expect(badId.text).toContain("query id")
        const bad = yield* query({ sql: "SELECT 1", format: "Parquet" })
        expect(bad.status).toBe(400)
        expect(bad.json).toMatchObject({ error: "bad_request" })
      })
    )

    it.effect("a function's failure says why, without the engine's plan step", () =>
      Effect.gen(function* () {
        const thrown = yield* query({
          sql: "SELECT throwIf(number = 1, 'the value was one') FROM numbers(2)"
        })
        expect(thrown.status).toBe(400)
        expect((thrown.json as { message: string }).message).toBe("the value was one.")
      })
    )

    it.effect(
      "resolves unqualified names in the selected database; a missing table names the others",
      () =>
        Effect.gen(function* () {
          const server = yield* TestServer
          const token = adminKeyOf(server)
          const insert = yield* call(server, "POST", "/v1/tables/events", {
            token,
            body: [{ service: "api" }, { service: "web" }]
          })
          expect(insert.status).toBe(200)
          const count = yield* query({ sql: "SELECT count() AS c FROM events", format: "CSV" })
          expect(count.text).toBe("2\n")
          const missing = yield* refused("SELECT * FROM nope")
          expect(missing.hint).toContain("events")
          // The list of tables names no columns; describe does.
          expect(missing.hint).toContain("GET /v1/tables/{table}")
          expect(missing.message).not.toContain("system.")
          const allowed = [
            "WITH 1 AS x SELECT x",
            "EXPLAIN SELECT 1",
            "DESCRIBE TABLE events",
            "SHOW TABLES",
            "EXISTS TABLE events",
            "SELECT count() FROM system.one"
          ]
          for (const sql of allowed) {
            const reply = yield* query({ sql, format: "TSV" })
            expect(reply.status, `${sql}: ${reply.text}`).toBe(200)
          }
        })
    )

    it.effect(
      "refuses writes, DDL, setting changes, outside table functions and several statements",
      () =>
        Effect.gen(function* () {
          for (const sql of [
            "INSERT INTO events (service) VALUES ('x')",
            "CREATE TABLE t2 (a Int8) ENGINE = Memory",
            "DROP TABLE events",
            "SELECT 1 SETTINGS readonly = 0"
          ]) {
            const body = yield* refused(sql)
            expect(body.message, sql).not.toMatch(/\/etc\/|\/tmp\//)
          }
          // Table functions that reach files or the network are outside the catalog a
          // query may call: refused before the engine sees them.
          for (const sql of [
            "SELECT * FROM file('/etc/passwd', 'LineAsString')",
            "SELECT * FROM url('http://127.0.0.1:1/x.csv', 'CSV', 'a Int8')",
            "SELECT * FROM remote('127.0.0.1', system.one)",
            "SELECT * FROM s3('http://127.0.0.1:1/bucket/key.csv', 'CSV', 'a Int8')"
          ]) {
            const body = yield* refused(sql, 403)
            expect(body.message, sql).toMatch(/^Queries may not call \w+\(\)/)
          }
          for (const sql of ["KILL QUERY WHERE 1", "SYSTEM SHUTDOWN", "OPTIMIZE TABLE events"]) {
            expect((yield* refused(sql)).hint, sql).toContain("read-only")
          }
          const multi = yield* refused("SELECT 1; DROP TABLE events")
          expect(multi.hint).toContain("one statement")
          const still = yield* query({ sql: "SELECT count() FROM events", format: "CSV" })
          expect(still.text).toBe("2\n")
        })
    )

    it.effect("refuses system tables that show other callers' statements", () =>
      Effect.gen(function* () {
        for (const sql of [
          "SELECT 1 INTO OUTFILE 'written-by-a-query.csv'",
          "SELECT * FROM system.processes",
          "SELECT query FROM `system`.query_log",
          "SHOW PROCESSLIST",
          "SELECT * FROM merge('system', '^proc')",
          "SELECT * FROM `sy\\x73tem`.processes",
          "SELECT name FROM system.tables"
        ]) {
          yield* refused(sql, 403)
        }
      })
    )

    it.effect("enforces the SQL size, time and result limits with hints", () =>
      Effect.gen(function* () {
        const long = yield* refused(`SELECT 1 -- ${"x".repeat(5000)}`)
        expect(long.hint).toContain("SLUICE_QUERY_MAX_SQL_BYTES")
        const slow = yield* refused(longQuery("slow"))
        expect(slow.hint).toContain("max_execution_time")
        const big = yield* refused("SELECT repeat('x', 100) FROM numbers(100000)")
        expect(big.hint, big.message).toContain("max_result_bytes")
      })
    )

    it.effect(
      "a streamed result that ends within two pieces goes out whole; a longer one streams",
      () =>
        Effect.gen(function* () {
          const small = yield* query({ sql: "SELECT number FROM numbers(3)", format: "CSV" })
          expect(small.status).toBe(200)
          expect(small.text).toBe("0\n1\n2\n")
          expect(small.headers.get("content-length")).toBe(String(small.text.length))
          expect(small.headers.get("transfer-encoding")).toBeNull()
          // 300,000 rows are several engine blocks, and 600 kB stay under the 1 MB limit.
          const long = yield* query({
            sql: "SELECT number % 10 FROM numbers(300000)",
            format: "TSV"
          })
          expect(long.status).toBe(200)
          expect(long.headers.get("transfer-encoding")).toBe("chunked")
          expect(long.text.length).toBe(600_000)
          expect(long.text.split("\n")[299_999]).toBe("9")
        })
    )

    // On a ClickHouse server the pieces are the server's HTTP chunks, far smaller than an
    // engine block: such a result is already streaming, and is cut off (the next test).
    it.effect.skipIf(onClickHouseServer)(
      "a streamed result that passes the limit in its second piece is refused whole",
      () =>
        Effect.gen(function* () {
          // The first block (65,536 rows of 11 bytes) is under the 1 MB limit; the second
          // takes the result past it, before anything was sent.
          const reply = yield* query({
            sql: "SELECT repeat('x', 10) FROM numbers(100000)",
            format: "TSV"
          })
          expect(reply.status).toBe(400)
          expect(reply.json).toMatchObject({ message: "The result is larger than 1000000 bytes." })
          expect(bodyOf(ErrorBody, reply).hint).toContain("SLUICE_QUERY_MAX_RESULT_BYTES")
        })
    )

    it.effect("a streamed result that passes the limit ends with the error, cut off", () =>
      Effect.gen(function* () {
        const server = yield* TestServer
        const token = adminKeyOf(server)
        // Each engine block is far below the 1 MB limit; together they pass it.
        const outcome = yield* Effect.promise(async () => {
          const reply = await fetch(`${server.url}/v1/query`, {
            method: "POST",
            headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
            body: JSON.stringify({
              sql: "SELECT number FROM numbers(1e7) WHERE number % 15 = 0",
              format: "JSONEachRow"
            })
          })
          const reader = reply.body!.getReader()
          const decoder = new TextDecoder()
          let text = ""
          try {
            for (;;) {
              const { done, value } = await reader.read()
              if (done) return { status: reply.status, text, complete: true }
              text += decoder.decode(value, { stream: true })
            }
          } catch {
            return { status: reply.status, text, complete: false }
          }
        })
        expect(outcome.status).toBe(200)
        // Not taken for a whole result: the connection closed before the last chunk.
        expect(outcome.complete).toBe(false)
        const lines = outcome.text.trim().split("\n")
        expect(lines.length).toBeGreaterThan(1000)
        const last = JSON.parse(lines[lines.length - 1]!) as { readonly exception: string }
        expect(last.exception).toContain("larger than 1000000 bytes")
        expect(last.exception).toContain("SLUICE_QUERY_MAX_RESULT_BYTES")
        // Every line before it is a row.
        expect(lines.slice(0, -1).every((line) => line.startsWith('{"number":'))).toBe(true)
        // The server is fine afterwards.
        const next = yield* query({ sql: "SELECT 1 AS one" })
        expect(next.status).toBe(200)
      })
    )
  }
)

// Without a time limit worth the name (and with the default 100 MiB result limit, more than
// a client that stopped reading holds), a query that ends did so because it was cancelled
// or abandoned, however long the test took to get there.
layer(TestServer.layer(undefined, { SLUICE_QUERY_TIMEOUT_SECONDS: "3600" }), {
  excludeTestServices: true,
  timeout: 120_000
})("POST /v1/query: cancel and abandoned queries", (it) => {
  it.effect("a client that goes away mid-stream ends the query's run", () =>
    Effect.gen(function* () {
      const server = yield* TestServer
      const token = adminKeyOf(server)
      const controller = new AbortController()
      yield* Effect.promise(async () => {
        const reply = await fetch(`${server.url}/v1/query`, {
          method: "POST",
          headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
          body: JSON.stringify({
            sql: "SELECT number AS gone_1 FROM numbers(1e12)",
            format: "TSV",
            query_id: "gone-1"
          }),
          signal: controller.signal
        })
        await reply.body!.getReader().read()
      })
      yield* awaitRunning("AS gone_1 FROM")
      controller.abort()
      // Left alone it would run on for an hour; the engine stops it now.
      yield* eventually(
        "the engine to stop the query",
        Effect.map(runningInEngine("AS gone_1 FROM"), (n) => (n === 0 ? true : undefined))
      )
      // Released from the registry only when its engine statement has been closed: until
      // then a query reusing its id is refused (409), and a cancel would find it (200).
      yield* eventually(
        "its query id to be free",
        Effect.map(query({ sql: "SELECT 1", query_id: "gone-1" }), (reply) =>
          reply.status === 409 ? undefined : reply.status
        )
      ).pipe(Effect.tap((status) => expect(status).toBe(200)))
      const last = yield* call(server, "POST", "/v1/query/cancel", {
        token,
        body: { query_id: "gone-1" }
      })
      expect(last.status).toBe(404)
    })
  )

  it.effect("a query id is refused (409) while a query with it runs, and free again after", () =>
    Effect.gen(function* () {
      const server = yield* TestServer
      const running = yield* Effect.fork(query({ sql: longQuery("twin_1"), query_id: "twin-1" }))
      const twin = (format: string) => query({ sql: "SELECT 1", format, query_id: "twin-1" })
      yield* awaitRunning("AS twin_1 FROM")
      const refused = yield* twin("JSON")
      expect(refused.status).toBe(409)
      expect(refused.json).toMatchObject({ hint: expect.stringContaining("query_id") })
      // Both result paths: JSON is read whole, other formats stream.
      expect((yield* twin("CSV")).status).toBe(409)
      const cancelled = yield* call(server, "POST", "/v1/query/cancel", {
        token: adminKeyOf(server),
        body: { query_id: "twin-1" }
      })
      expect(cancelled.status).toBe(200)
      expect((yield* Fiber.join(running)).status).toBe(400)
      expect((yield* twin("JSON")).status).toBe(200)
    })
  )

  it.effect("cancel stops a running query; only its own cluster and database may cancel it", () =>
    Effect.gen(function* () {
      const server = yield* TestServer
      const token = adminKeyOf(server)
      yield* createDatabase(server, "other")
      const elsewhere = (yield* otherCluster(server, "elsewhere")).token
      const running = yield* Effect.fork(query({ sql: longQuery("long_1"), query_id: "long-1" }))
      const cancel = (database: string) =>
        call(server, "POST", `/v1/query/cancel?database=${database}`, {
          token,
          body: { query_id: "long-1" }
        })
      yield* awaitRunning("AS long_1 FROM")
      expect((yield* cancel("other")).status).toBe(404)
      const fromElsewhere = yield* call(server, "POST", "/v1/query/cancel", {
        token: elsewhere,
        body: { query_id: "long-1" }
      })
      expect(fromElsewhere.status).toBe(404)
      const own = yield* cancel("default")
      expect(own.status).toBe(200)
      expect(own.json).toEqual({ cancelled: true })
      const reply = yield* Fiber.join(running)
      expect(reply.status).toBe(400)
      expect(reply.json).toMatchObject({ message: "The query was cancelled." })
      const unknown = yield* cancel("default")
      expect(unknown.status).toBe(404)
    })
  )
})
