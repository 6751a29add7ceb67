/**
 * Samples that may be in the table already, without those that are: writes replayed
 * from the log after a crash (its releases are counted in memory only, so a segment's
 * stored writes come back) and a batch tried again after a failure the engine may have
 * outlived. Reads drop repeated (id, timestamp) pairs, but plain SQL would count them
 * twice until a merge; a sample already stored keeps its value, as Prometheus keeps the
 * first of two samples at one time.
 */
import { Effect, Schema } from "effect"
import type { AnalyticalEngine } from "../../domain/Engine.js"
import * as EngineSql from "../tables/EngineSql.js"
import { qualified } from "../tables/Layout.js"
import { SAMPLES_TABLE } from "./MetricsTables.js"
import { ROW_BYTES } from "./SamplesBody.js"

// Ids named in one statement: the engine parses at most 256 KiB of SQL.
const IDS_PER_READ = 4_000

const StoredRow = Schema.Struct({ id: Schema.String, times: Schema.Array(Schema.Number) })

interface Row {
  readonly piece: Uint8Array
  readonly at: number
  readonly id: string
  readonly time: number
}

const rowsOf = (pieces: ReadonlyArray<Uint8Array>): Array<Row> => {
  const rows: Array<Row> = []
  for (const piece of pieces) {
    const view = new DataView(piece.buffer, piece.byteOffset, piece.byteLength)
    for (let at = 0; at + ROW_BYTES <= piece.length; at += ROW_BYTES)
      rows.push({
        piece,
        at,
        id: view.getBigUint64(at, true).toString(),
        time: Number(view.getBigInt64(at + 8, true))
      })
  }
  return rows
}

/** `pieces` (RowBinary sample rows, SamplesBody.ts) without the rows the table holds. */
export const withoutStored = (
  engine: AnalyticalEngine,
  database: string,
  pieces: ReadonlyArray<Uint8Array>
) =>
  Effect.gen(function* () {
    const rows = rowsOf(pieces)
    if (rows.length === 0) return pieces
    let from = Infinity
    let to = -Infinity
    for (const row of rows) {
      if (row.time < from) from = row.time
      if (row.time > to) to = row.time
    }
    const ids = [...new Set(rows.map((row) => row.id))]
    const stored = new Map<string, Set<number>>()
    for (let start = 0; start < ids.length; start += IDS_PER_READ) {
      const found = yield* EngineSql.rows(
        engine,
        StoredRow,
        `SELECT toString(id) AS id, groupArray(toFloat64(toUnixTimestamp64Milli(timestamp))) AS times ` +
          `FROM ${qualified(database, SAMPLES_TABLE)} ` +
          `WHERE id IN (${ids.slice(start, start + IDS_PER_READ).join(", ")}) ` +
          `AND timestamp >= fromUnixTimestamp64Milli(toInt64(${from}), 'UTC') ` +
          `AND timestamp <= fromUnixTimestamp64Milli(toInt64(${to}), 'UTC') GROUP BY id`
      )
      for (const row of found) stored.set(row.id, new Set(row.times))
    }
    const kept = rows.filter((row) => stored.get(row.id)?.has(row.time) !== true)
    if (kept.length === rows.length) return pieces
    const out = new Uint8Array(kept.length * ROW_BYTES)
    kept.forEach((row, index) =>
      out.set(row.piece.subarray(row.at, row.at + ROW_BYTES), index * ROW_BYTES)
    )
    return kept.length === 0 ? [] : [out]
  })
