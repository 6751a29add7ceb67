/**
 * A dozen hand-made events in `spl_events` of an in-process chDB (`:memory:`), laid out
 * by the events layout's own create statement, one minute apart from `T0`. The expected
 * rows of every SPL test are worked out by hand from these events and Splunk's documented semantics.
 */
import type { ClickHouseClient } from "@clickhouse/client"
import { afterAll } from "@effect/vitest"
import { Effect } from "effect"
import { SplCompiler } from "../../domain/SplCompiler.js"
import type { SearchWindow } from "../../domain/SplCompiler.js"
import { client } from "../../src/engine/ChdbEngine.js"
import { createTableSql, insertShape, QUERY_SETTINGS } from "../../src/tables/Layout.js"

export const T0 = Date.UTC(2026, 0, 1)
export const at = (minute: number) => T0 + minute * 60_000

export interface Event {
  readonly raw: string
  readonly host: string
  readonly index?: string
  readonly sourcetype?: string
  readonly fields: Record<string, unknown>
}

/** Event `eN` is at minute N; newest first is e12 … e1. */
export const EVENTS: ReadonlyArray<Event> = [
  {
    raw: "error: disk full",
    host: "web-1",
    fields: { id: "e1", status: 500, msg: "error", bytes: "1200", user: "alice", method: "GET" }
  },
  {
    raw: "errors everywhere",
    host: "web-2",
    fields: {
      id: "e2",
      status: "200",
      msg: "upstream error",
      bytes: 800,
      user: "bob",
      method: "POST"
    }
  },
  {
    raw: "GET /api/items/404 upstream_error",
    host: "web-1",
    fields: { id: "e3", status: 404, bytes: "abc", method: "GET" }
  },
  {
    raw: '{"level":"ERROR","note":"connection refused by peer"}',
    host: "db-1",
    index: "audit",
    sourcetype: "json",
    fields: { id: "e4", level: "ERROR", note: "connection refused by peer", status: 503 }
  },
  {
    raw: "refused connection",
    host: "db-1",
    fields: { id: "e5", status: "201", user: "Alice", bytes: "99" }
  },
  {
    raw: "Error-prone module loaded",
    host: "web-2",
    fields: { id: "e6", status: "1.0", user: "carol", msg: "ok" }
  },
  {
    raw: 'erratic behaviour "error"',
    host: "web-3",
    fields: { id: "e7", status: 302, user: "bob", k8s: { pod: { name: "api-7" } } }
  },
  {
    raw: "terror alert",
    host: "web-3",
    index: "audit",
    fields: { id: "e8", user: "dave", bytes: "10" }
  },
  {
    raw: "user=alice action=login",
    host: "web-1",
    fields: { id: "e9", user: "alice", method: "get", status: "404" }
  },
  {
    raw: "ERR_TIMEOUT connection refused",
    host: "web-2",
    fields: { id: "e10", status: 504, msg: "timeout", bytes: "15000", method: "POST" }
  },
  {
    raw: "all good",
    host: "web-1",
    fields: { id: "e11", status: 200, user: "erin", bytes: "100" }
  },
  {
    raw: 'O\'Brien said "hi" \\back',
    host: "we'b",
    fields: { id: "e12", msg: "it's", user: "o'brien" }
  }
]

/** The leaf paths of `EVENTS`' fields, by name. */
export const STORED_FIELDS = [
  "bytes",
  "id",
  "k8s.pod.name",
  "level",
  "method",
  "msg",
  "note",
  "status",
  "user"
]

/**
 * A chDB in this process holding `events` (by default `EVENTS`) in `default.spl_events`,
 * closed after the calling file's tests (the last `:memory:` session's close removes
 * chDB's temporary directory). Called while a test file is collected.
 */
export const openEvents = async (
  events: ReadonlyArray<Event> = EVENTS
): Promise<ClickHouseClient> => {
  const chdb = client(":memory:")
  afterAll(() => chdb.close())
  await chdb.command({
    query: createTableSql("default", "spl_events", "2026-01-01T00:00:00Z", "events")
  })
  // The service sends these columns as `RowBinary` (src/ingest/EventRows.ts); as JSON
  // lines they store the same rows (test/ingest/eventRows.test.ts).
  const { columns } = insertShape("events")
  await chdb.insert({
    table: "default.spl_events",
    format: "JSONEachRow",
    columns: columns as [string, ...Array<string>],
    values: events.map((event, i) => ({
      _time: at(i + 1),
      _raw: event.raw,
      host: event.host,
      source: "http:test",
      sourcetype: event.sourcetype ?? "httpevent",
      index: event.index ?? "main",
      __raw: event.fields
    }))
  })
  return chdb
}

/** The rows of `sql`, as JSON objects. */
export const rowsOf = async (chdb: ClickHouseClient, sql: string) => {
  const result = await chdb.query({
    query: sql,
    format: "JSONEachRow",
    clickhouse_settings: { ...QUERY_SETTINGS, output_format_json_quote_64bit_integers: 0 }
  })
  return (await result.json()) as Array<Record<string, unknown>>
}

/**
 * Compiles `spl` through the `SplCompiler` tag and runs it on `chdb`; `stored` are the
 * fields the events hold, as the search service finds them (`STORED_FIELDS`).
 */
export const search = (
  chdb: ClickHouseClient,
  spl: string,
  window: SearchWindow = {},
  stored: ReadonlyArray<string> = []
) =>
  Effect.gen(function* () {
    const compiled = yield* (yield* SplCompiler).compile(spl, window, stored)
    return yield* Effect.promise(() => rowsOf(chdb, compiled.sql))
  })

/** The `id` field of each event a search returns, in order. */
export const ids = (chdb: ClickHouseClient, spl: string, window: SearchWindow = {}) =>
  Effect.map(search(chdb, `${spl} | table id`, window), (rows) => rows.map((row) => row["id"]))
