import { afterAll, describe, expect, it, layer } from "@effect/vitest"
import { Data, Effect, Exit, Fiber, Scope, Stream } from "effect"
import { randomUUID } from "node:crypto"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { CommandRequest, Engines, InsertRequest, EngineQuery } from "../../domain/Engine.js"
import type { EngineSettings } from "../../domain/Engine.js"
import { Layer } from "effect"
import * as ChdbEngine from "../../src/engine/ChdbEngine.js"
import * as EmbeddedProvisioner from "../../src/provisioner/EmbeddedProvisioner.js"
import {
  awaitGone,
  readOpened,
  awaitRunning,
  bytes,
  newClusterId,
  provisionedEngines,
  queryText,
  text
} from "./helpers.js"
import { eventually } from "../support/eventually.js"

// Each cluster's chDB runs in its own worker process; these tests drive them over RPC.
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "sluice-engine-"))
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }))
const cluster = newClusterId()
const clusterDir = path.join(dataDir, "clusters", cluster)

const LONG_QUERY = "SELECT count() FROM numbers(1e11) WHERE sipHash64(number) = 0"
const rows = [
  { service: "api", status: 200, user: { id: 1 } },
  { service: "api", status: 500, user: { id: 2, plan: "pro" } },
  { service: "web", status: 200, big: "18446744073709551615" }
]
const ndjson = rows.map((row) => JSON.stringify(row)).join("\n") + "\n"

class BodyBroke extends Data.TaggedError("BodyBroke")<{}> {}

const engine = Effect.flatMap(Engines, (engines) => engines.forCluster(cluster))
const insertRequest = () =>
  new InsertRequest({
    database: "logs",
    table: "events",
    format: "JSONAsObject",
    queryId: randomUUID()
  })
const count = (e: Effect.Effect.Success<typeof engine>) =>
  queryText(e, "SELECT count() FROM logs.events", "TabSeparated").pipe(Effect.map(Number))

const EnginesLive = provisionedEngines.pipe(
  Layer.provideMerge(EmbeddedProvisioner.layer({ dataDir }))
)

layer(EnginesLive, { excludeTestServices: true, timeout: 120_000 })("ChdbEngine", (it) => {
  it.effect("runs each cluster in its own private directory, side by side", () =>
    Effect.gen(function* () {
      const engines = yield* Engines
      const first = yield* engines.forCluster(cluster)
      expect(yield* engines.forCluster(cluster)).toBe(first)
      expect(fs.statSync(clusterDir).mode & 0o777).toBe(0o700)
      const other = yield* engines.forCluster(newClusterId())
      expect(other).not.toBe(first)
      yield* other.command(new CommandRequest({ sql: "CREATE DATABASE only_here" }))
      const here = yield* queryText(
        other,
        "SELECT count() FROM system.databases WHERE name = 'only_here'",
        "TabSeparated"
      )
      const there = yield* queryText(
        first,
        "SELECT count() FROM system.databases WHERE name = 'only_here'",
        "TabSeparated"
      )
      expect([here.trim(), there.trim()]).toEqual(["1", "0"])
    })
  )

  it.effect("streams NDJSON into a JSON column and reads it back in several formats", () =>
    Effect.gen(function* () {
      const e = yield* engine
      yield* e.command(new CommandRequest({ sql: "CREATE DATABASE IF NOT EXISTS logs" }))
      yield* e.command(
        new CommandRequest({
          sql: "CREATE TABLE logs.events (raw JSON) ENGINE = MergeTree ORDER BY tuple()"
        })
      )
      // Chunks cut through rows: the engine must see one byte stream.
      const chunks = [ndjson.slice(0, 10), ndjson.slice(10, 50), ndjson.slice(50)].map(bytes)
      yield* e.insert(insertRequest(), Stream.fromIterable(chunks))
      expect(yield* count(e)).toBe(3)

      const sql =
        "SELECT raw.service::String AS service, raw.status::Int64 AS status FROM logs.events ORDER BY status, service;"
      const json = JSON.parse(yield* queryText(e, sql, "JSON"))
      expect(json.rows).toBe(3)
      expect(json.data.map((r: { service: string }) => r.service)).toEqual(["api", "web", "api"])
      const eachRow = (yield* queryText(e, sql, "JSONEachRow"))
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l))
      expect(eachRow[2]).toEqual({ service: "api", status: "500" })
      const csv = yield* queryText(e, `${sql} -- trailing comment`, "CSVWithNames")
      expect(csv.split("\n")[0]).toBe('"service","status"')
    })
  )

  it.effect("keeps 64-bit integers exact in JSON output", () =>
    Effect.gen(function* () {
      const e = yield* engine
      const out = yield* queryText(
        e,
        "SELECT toUInt64(18446744073709551615) AS u, toInt64(-9007199254740993) AS i",
        "JSONEachRow"
      )
      expect(JSON.parse(out)).toEqual({ u: "18446744073709551615", i: "-9007199254740993" })
    })
  )

  it.effect("readonly=1 refuses writes and file() without leaking paths, and does not stick", () =>
    Effect.gen(function* () {
      const e = yield* engine
      const insert = yield* Effect.flip(
        queryText(e, "INSERT INTO logs.events SELECT * FROM logs.events", "TabSeparated", {
          readonly: 1
        })
      )
      expect(insert).toMatchObject({ _tag: "EngineError", code: 164, type: "READONLY" })
      const file = yield* Effect.flip(
        queryText(e, `SELECT * FROM file('${clusterDir}/x.csv')`, "CSV", { readonly: 1 })
      )
      expect(file.type).toBe("READONLY")
      expect(file.message).not.toMatch(/\//)
      // chDB applies settings as session SETs: the next statement must not inherit them.
      yield* e.insert(insertRequest(), Stream.make(bytes('{"service":"after-readonly"}\n')))
      expect(yield* count(e)).toBe(4)
    })
  )

  it.effect("queries run in the requested database, one statement each, SHOW included", () =>
    Effect.gen(function* () {
      const e = yield* engine
      const inDatabase = (sql: string, format = "TabSeparated") =>
        text(
          e.query(
            new EngineQuery({
              sql,
              format,
              queryId: randomUUID(),
              database: "logs",
              settings: { readonly: 1 }
            })
          )
        )
      expect(yield* inDatabase("SELECT currentDatabase()")).toBe("logs\n")
      expect(yield* inDatabase("SHOW TABLES")).toContain("events")
      expect(yield* inDatabase("EXISTS TABLE events")).toBe("1\n")
      const several = yield* Effect.flip(inDatabase("SELECT 1; DROP TABLE events"))
      expect(several).toMatchObject({ type: "SYNTAX_ERROR" })
      expect(several.message).toContain("Multi-statements")
      expect(yield* inDatabase("SELECT count() FROM events")).toMatch(/^\d+\n$/)
      const many = yield* inDatabase("SELECT number FROM numbers(1000000)", "CSV")
      expect(many.length).toBeGreaterThan(6_000_000)
    })
  )

  it.effect("reports syntax errors and bad formats as EngineErrors", () =>
    Effect.gen(function* () {
      const e = yield* engine
      const syntax = yield* Effect.flip(queryText(e, "SELEC 1", "CSV"))
      expect(syntax).toMatchObject({ code: 62, type: "SYNTAX_ERROR" })
      // At the end of the text: the position is the user's, not past the query's marker.
      const early = yield* Effect.flip(queryText(e, "SELECT 1 +", "CSV"))
      expect(early.message).toContain("failed at position 11 (end of query):")
      const format = yield* Effect.flip(queryText(e, "SELECT 1", "CSV; DROP DATABASE logs"))
      expect(format.type).toBe("UNKNOWN_FORMAT")
      const row = yield* Effect.flip(
        e.insert(insertRequest(), Stream.make(bytes('{"a":1}\n[1]\n')))
      )
      expect(row).toMatchObject({ _tag: "EngineError", type: "INCORRECT_DATA" })
      expect(yield* count(e)).toBe(4)
    })
  )

  it.effect("an insert whose body fails surfaces the body's error and inserts nothing", () =>
    Effect.gen(function* () {
      const e = yield* engine
      const body = Stream.concat(
        Stream.make(bytes('{"service":"lost"}\n')),
        Stream.fail(new BodyBroke())
      )
      const error = yield* Effect.flip(e.insert(insertRequest(), body))
      expect(error).toBeInstanceOf(BodyBroke)
      expect(yield* count(e)).toBe(4)
    })
  )

  it.effect("insertWhole inserts a held body in one call; a refused one inserts nothing", () =>
    Effect.gen(function* () {
      const e = yield* engine
      yield* e.command(
        new CommandRequest({
          sql: "CREATE TABLE logs.held (raw JSON) ENGINE = MergeTree ORDER BY tuple()"
        })
      )
      const held = () => new InsertRequest({ ...insertRequest(), table: "held" })
      const rowsHeld = queryText(e, "SELECT count() FROM logs.held", "TabSeparated")
      yield* e.insertWhole(held(), bytes('{"service":"whole","status":201}\n'))
      const refused = yield* Effect.flip(e.insertWhole(held(), bytes('{"service":"half"}\n[1]\n')))
      expect(refused).toMatchObject({ _tag: "EngineError", type: "INCORRECT_DATA" })
      const unknown = yield* Effect.flip(
        e.insertWhole(new InsertRequest({ ...held(), table: "no_such_table" }), bytes("{}\n"))
      )
      expect(unknown).toMatchObject({ _tag: "EngineError", type: "UNKNOWN_TABLE" })
      expect(yield* rowsHeld).toBe("1\n")
      const stored = yield* queryText(
        e,
        "SELECT raw.service::String, raw.status::Int64 FROM logs.held",
        "TabSeparated"
      )
      expect(stored).toBe("whole\t201\n")
    })
  )

  it.effect("takes RowBinary bit for bit; a cut-short body inserts nothing and names no path", () =>
    Effect.gen(function* () {
      const e = yield* engine
      yield* e.command(
        new CommandRequest({
          sql:
            "CREATE TABLE logs.samples (id UInt64, t Int64, bits UInt64 EPHEMERAL, " +
            "value Float64 DEFAULT reinterpretAsFloat64(bits)) ENGINE = MergeTree ORDER BY id"
        })
      )
      // Two rows: the largest id, a negative time and a NaN with a payload; then 1.0.
      const body = Buffer.alloc(48)
      body.writeBigUInt64LE(18446744073709551615n, 0)
      body.writeBigInt64LE(-1767225600123n, 8)
      body.writeBigUInt64LE(0x7ff0000000000002n, 16)
      body.writeBigUInt64LE(7n, 24)
      body.writeBigInt64LE(1767225600123n, 32)
      body.writeBigUInt64LE(0x3ff0000000000000n, 40)
      const request = () =>
        new InsertRequest({
          database: "logs",
          table: "samples",
          format: "RowBinary",
          columns: ["id", "t", "bits"],
          queryId: randomUUID()
        })
      yield* e.insertWhole(request(), body)
      const read = queryText(
        e,
        "SELECT id, t, reinterpretAsUInt64(value) FROM logs.samples ORDER BY id",
        "TabSeparated"
      )
      expect(yield* read).toBe(
        "7\t1767225600123\t4607182418800017408\n" +
          "18446744073709551615\t-1767225600123\t9218868437227405314\n"
      )
      const refused = yield* Effect.flip(e.insertWhole(request(), body.subarray(0, 40)))
      expect(refused).toMatchObject({ _tag: "EngineError", type: "CANNOT_READ_ALL_DATA" })
      expect(refused.message).not.toContain(dataDir)
      expect((yield* read).split("\n").filter(Boolean)).toHaveLength(2)
      // The bodies' files are gone once their inserts ended.
      expect(fs.readdirSync(path.join(clusterDir, "insert-files"))).toEqual([])
    })
  )

  it.effect("a session kept from one query carries nothing into a query set up otherwise", () =>
    Effect.gen(function* () {
      const e = yield* engine
      const setting = (settings: EngineSettings, database?: string) =>
        text(
          e.query(
            new EngineQuery({
              sql: "SELECT getSetting('readonly'), getSetting('max_threads'), currentDatabase()",
              format: "TabSeparated",
              queryId: randomUUID(),
              settings,
              ...(database === undefined ? {} : { database })
            })
          )
        )
      // Each twice, so the second of each runs on a kept session.
      for (let round = 0; round < 2; round++) {
        expect(yield* setting({ readonly: 1, max_threads: 1 }, "logs")).toBe("1\t1\tlogs\n")
        expect(yield* setting({ max_threads: 2 })).toBe("0\t2\tdefault\n")
        expect(yield* setting({ readonly: 1, max_threads: 1 })).toBe("1\t1\tdefault\n")
      }
    })
  )

  it.effect("cancel stops a long query", () =>
    Effect.gen(function* () {
      const e = yield* engine
      const queryId = randomUUID()
      const request = new EngineQuery({
        sql: LONG_QUERY,
        format: "CSV",
        queryId,
        settings: { max_execution_time: 3600 }
      })
      const fiber = yield* Effect.fork(text(e.query(request)))
      yield* awaitRunning(e, queryId)
      expect(yield* e.cancel(queryId)).toBe(true)
      // Left alone it would run for its hour: it ends because it was cancelled.
      const exit = yield* Fiber.await(fiber)
      expect(
        Exit.isFailure(exit) && exit.cause._tag === "Fail" ? exit.cause.error : exit
      ).toMatchObject({
        type: "QUERY_WAS_CANCELLED"
      })
      yield* awaitGone(e, queryId)
      expect(yield* e.cancel(randomUUID())).toBe(false)
    })
  )

  it.effect("queryWhole answers what the stream does, in one buffer, up to its byte limit", () =>
    Effect.gen(function* () {
      const e = yield* engine
      const request = (format: string) =>
        new EngineQuery({
          sql: "SELECT number, toString(number) AS s FROM numbers(1000)",
          format,
          queryId: randomUUID(),
          settings: { readonly: 1 }
        })
      const csv = new TextDecoder().decode(yield* e.queryWhole(request("CSV"), 1e6))
      expect(csv).toBe(yield* text(e.query(request("CSV"))))
      // JSON differs between runs only in its timings.
      const json = (raw: string) => {
        const { statistics: _, ...rest } = JSON.parse(raw) as Record<string, unknown>
        return rest
      }
      const whole = json(new TextDecoder().decode(yield* e.queryWhole(request("JSON"), 1e6)))
      expect(whole).toMatchObject({ rows: 1000 })
      expect(whole).toEqual(json(yield* text(e.query(request("JSON")))))
      const tooLarge = yield* Effect.flip(e.queryWhole(request("JSON"), 1000))
      expect(tooLarge).toMatchObject({ type: "TOO_MANY_ROWS_OR_BYTES" })
      expect(tooLarge.message).toBe("The result is larger than 1000 bytes.")
      const failed = yield* Effect.flip(e.queryWhole(request("NoSuchFormat"), 1e6))
      expect(failed._tag).toBe("EngineError")
    })
  )

  it.effect("interrupting or cancelling a queryWhole stops the engine's work", () =>
    Effect.gen(function* () {
      const e = yield* engine
      const whole = (queryId: string) =>
        Effect.fork(
          e.queryWhole(new EngineQuery({ sql: LONG_QUERY, format: "JSON", queryId }), 1e6)
        )
      const interrupted = randomUUID()
      const fiber = yield* whole(interrupted)
      yield* awaitRunning(e, interrupted)
      yield* Fiber.interrupt(fiber)
      yield* awaitGone(e, interrupted)

      const cancelled = randomUUID()
      const running = yield* whole(cancelled)
      yield* awaitRunning(e, cancelled)
      expect(yield* e.cancel(cancelled)).toBe(true)
      expect(yield* Effect.flip(Fiber.join(running))).toMatchObject({
        type: "QUERY_WAS_CANCELLED"
      })
      yield* awaitGone(e, cancelled)
    })
  )

  it.effect("interrupting a query stream stops the engine's work", () =>
    Effect.gen(function* () {
      const e = yield* engine
      const queryId = randomUUID()
      const fiber = yield* Effect.fork(
        Stream.runDrain(e.query(new EngineQuery({ sql: LONG_QUERY, format: "CSV", queryId })))
      )
      yield* awaitRunning(e, queryId)
      yield* Fiber.interrupt(fiber)
      yield* awaitGone(e, queryId)
    })
  )
})

describe("ChdbEngine.open", () => {
  it.scopedLive("reopens the directory after a clean close, data intact", () =>
    Effect.gen(function* () {
      const reopened = yield* ChdbEngine.open(clusterDir)
      expect(yield* count(reopened)).toBe(4)
      const services = yield* queryText(
        reopened,
        "SELECT raw.service FROM logs.events",
        "TabSeparated"
      )
      expect(services.split("\n")).toContain("after-readonly")
    })
  )

  it.scopedLive("queryOpen reads a result's first pieces in one call and streams the rest", () =>
    Effect.gen(function* () {
      const e = yield* ChdbEngine.open(clusterDir)
      const open = e.queryOpen!
      const request = (sql: string) =>
        new EngineQuery({
          sql,
          format: "CSV",
          queryId: randomUUID(),
          settings: { readonly: 1, max_block_size: 1000 }
        })
      const joined = (pieces: ReadonlyArray<Uint8Array>) =>
        new TextDecoder().decode(Buffer.concat(pieces))
      const small = "SELECT number, toString(number) AS s FROM numbers(10)"
      const whole = yield* Effect.scoped(open(request(small), 2))
      expect(whole.rest).toBeUndefined()
      expect(joined(whole.head)).toBe(yield* text(e.query(request(small))))

      const long = "SELECT number FROM numbers(100000)"
      const read = yield* readOpened(open(request(long), 2))
      expect(read.head).toHaveLength(2)
      expect(read.text.split("\n")).toHaveLength(100001)
      expect(read.text).toBe(yield* text(e.query(request(long))))

      // Interrupted while it waits for its first piece, its scope's end stops the query.
      const queryId = randomUUID()
      const fiber = yield* Effect.fork(
        Effect.scoped(open(new EngineQuery({ sql: LONG_QUERY, format: "CSV", queryId }), 2))
      )
      yield* awaitRunning(e, queryId)
      yield* Fiber.interrupt(fiber)
      yield* awaitGone(e, queryId)
    })
  )

  it.live("closing waits for a query in flight instead of tearing the engine down", () =>
    Effect.gen(function* () {
      const scope = yield* Scope.make()
      const e = yield* Scope.extend(ChdbEngine.open(clusterDir), scope)
      const queryId = randomUUID()
      const query = yield* Effect.fork(
        text(e.query(new EngineQuery({ sql: LONG_QUERY, format: "CSV", queryId })))
      )
      yield* awaitRunning(e, queryId)
      const closing = yield* Effect.fork(Scope.close(scope, Exit.void))
      // Closing has begun once new work is refused; it then waits for the query.
      yield* eventually(
        "the closing engine to refuse new queries",
        Effect.flip(queryText(e, "SELECT 1", "TabSeparated")).pipe(
          Effect.map((error) => (error.type === "ENGINE_CLOSED" ? true : undefined)),
          Effect.orElseSucceed(() => undefined)
        )
      )
      expect(closing.unsafePoll()).toBeNull()
      expect(query.unsafePoll()).toBeNull()
      expect(yield* e.cancel(queryId)).toBe(true)
      // The query ends as cancelled (a connection closed under it would abort the process).
      expect(yield* Effect.flip(Fiber.join(query))).toMatchObject({ type: "QUERY_WAS_CANCELLED" })
      yield* Fiber.join(closing)
    })
  )
})
