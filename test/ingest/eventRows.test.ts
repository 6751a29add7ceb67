/**
 * The events' `RowBinary` rows (src/ingest/EventRows.ts) against the reference: the same
 * events as `JSONEachRow` lines, the form they were sent in before, into a second table of
 * the events layout. The engine reads both; every column must come out the same,
 * including the fields' paths and types in the JSON column.
 */
import { afterAll, describe, expect, it } from "@effect/vitest"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { InsertRequest } from "../../domain/Engine.js"
import type { SplEvent } from "../../domain/SplEvent.js"
import { client } from "../../src/engine/ChdbEngine.js"
import { insertStatement } from "../../src/engine/Sql.js"
import { CHUNK_BYTES } from "../../src/ingest/BodyInsert.js"
import { eventChunks } from "../../src/ingest/EventRows.js"
import { createTableSql, insertShape } from "../../src/tables/Layout.js"

const chdb = client(":memory:")
afterAll(() => chdb.close())

const event = (
  time: number,
  raw: string,
  fields: SplEvent["fields"],
  extra: Partial<SplEvent> = {}
): SplEvent => ({
  time,
  raw,
  host: "web-1",
  source: "http:test",
  sourcetype: "httpevent",
  index: "main",
  fields,
  ...extra
})

const TRICKY: ReadonlyArray<SplEvent> = [
  event(1_767_225_600_123, '{"a":1}', { a: 1 }),
  event(0, "the epoch", {}),
  event(4_102_444_800_000, "far ahead (2100)", { when: "later" }),
  event(1_767_225_600_124, 'quotes " and \\ backslash\tand\nnewline', { msg: 'said "hi"\n' }),
  event(
    1_767_225_600_125,
    "é 日本 🚀",
    { ünïcode: "ça va", emoji: "🚀" },
    { host: "hôte", index: "" }
  ),
  event(1_767_225_600_126, "nested", {
    request: { method: "GET", client: { ip: "10.0.0.1" } },
    tags: ["a", "b"],
    ok: true,
    none: null,
    ratio: 0.25,
    big: 9_007_199_254_740_991,
    negative: -42
  }),
  // Lengths past one and two bytes of LEB128 (127, 16,383).
  event(1_767_225_600_127, "x".repeat(200), { long: "y".repeat(20_000) }),
  event(1_767_225_600_128, "", {}, { host: "", source: "", sourcetype: "" })
]

const COLUMNS =
  "_time, _raw, host, source, sourcetype, index, toJSONString(__raw_data) AS fields, " +
  "toJSONString(JSONAllPathsWithTypes(__raw_data)) AS types"

const rowsOf = async (table: string) => {
  const result = await chdb.query({
    query: `SELECT ${COLUMNS} FROM default.${table} ORDER BY _time, _raw`,
    format: "JSONEachRow"
  })
  return result.json()
}

const createTable = (table: string) =>
  chdb.command({ query: createTableSql("default", table, "2026-01-01T00:00:00Z", "events") })

/** The reference: the events as `JSONEachRow` lines. */
const insertAsJson = async (table: string, events: ReadonlyArray<SplEvent>) => {
  await createTable(table)
  await chdb.insert({
    table: `default.${table}`,
    format: "JSONEachRow",
    columns: insertShape("events").columns as [string, ...Array<string>],
    values: events.map((e) => ({
      _time: e.time,
      _raw: e.raw,
      host: e.host,
      source: e.source,
      sourcetype: e.sourcetype,
      index: e.index,
      __raw: e.fields
    }))
  })
}

/** As the service sends them: each chunk's bytes read by the engine from a file (NativeSession.ts). */
const insertAsRows = async (table: string, events: ReadonlyArray<SplEvent>) => {
  await createTable(table)
  const { format, columns, settings } = insertShape("events")
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "event-rows-"))
  try {
    const chunks = [...eventChunks(events)]
    for (const [i, chunk] of chunks.entries()) {
      const file = path.join(dir, `${i}.bin`)
      fs.writeFileSync(file, Buffer.concat(chunk.parts))
      const request = new InsertRequest({
        database: "default",
        table,
        format,
        columns,
        queryId: crypto.randomUUID(),
        settings
      })
      await chdb.command({ query: insertStatement(request, settings, file) })
    }
    return chunks
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
}

describe("events as RowBinary rows", () => {
  it("store what the same events as JSON lines store, column by column", async () => {
    await insertAsJson("as_json", TRICKY)
    const chunks = await insertAsRows("as_rows", TRICKY)
    expect(chunks).toHaveLength(1)
    expect(chunks[0]).toMatchObject({ firstRecord: 0, records: TRICKY.length, last: true })
    const reference = await rowsOf("as_json")
    expect(reference).toHaveLength(TRICKY.length)
    expect(await rowsOf("as_rows")).toEqual(reference)
  })

  it("cut many events into chunks of about CHUNK_BYTES, every event once", async () => {
    const many = Array.from({ length: 300 }, (_, i) =>
      event(1_767_225_600_000 + i, `event ${i} ${"z".repeat(20_000)}`, { i })
    )
    await insertAsJson("many_json", many)
    const chunks = await insertAsRows("many_rows", many)
    expect(chunks.length).toBeGreaterThan(1)
    expect(chunks.map((c) => c.records).reduce((a, b) => a + b)).toBe(many.length)
    expect(chunks.map((c) => c.firstRecord)).toEqual(
      chunks.map((_, i) => chunks.slice(0, i).reduce((n, c) => n + c.records, 0))
    )
    expect(chunks.map((c) => c.last)).toEqual(chunks.map((_, i) => i === chunks.length - 1))
    // Each chunk but the last passed the size once its last event was added.
    for (const chunk of chunks.slice(0, -1))
      expect(chunk.parts.reduce((n, p) => n + p.length, 0)).toBeGreaterThanOrEqual(CHUNK_BYTES)
    expect(await rowsOf("many_rows")).toEqual(await rowsOf("many_json"))
  })
})
