/**
 * Which series rows a database already holds, so a write adds a row only for a series
 * that is new or reaches a new hour. A series row's time bounds are widened to whole
 * hours (`/series` and `/labels` prune by them at that grain, as Prometheus prunes by
 * chunk); samples are always read by their exact times. A series insert with every write
 * was a large part of each write's time. Forgotten on restart (rows are written again,
 * which the AggregatingMergeTree folds) and when it grows past a bound.
 */
import type { DecodedSeries } from "./RemoteWriteDecode.js"
import type { Labels } from "./SeriesLabels.js"

const HOUR = 3_600_000
const REMEMBERED = 1_000_000

export interface SeriesRow {
  readonly id: string
  readonly labels: Labels
  readonly minTime: number
  readonly maxTime: number
}

const hourStart = (ms: number) => Math.floor(ms / HOUR) * HOUR

export const makeSeriesRowsWritten = () => {
  // Per database, per series id: the hours its row covers. Nested, so a lookup builds no key.
  const written = new Map<string, Map<string, { min: number; max: number }>>()
  let size = 0

  /**
   * The rows `series` still need in `database`, remembered at once: the accepted write
   * that carries them stores them, however many attempts that takes.
   */
  const rowsFor = (database: string, series: ReadonlyArray<DecodedSeries>) => {
    const rows: Array<SeriesRow> = []
    let known = written.get(database)
    for (const one of series) {
      if (one.samples === 0) continue
      const min = hourStart(one.minTime)
      const max = hourStart(one.maxTime) + HOUR - 1
      const before = known?.get(one.id)
      if (before !== undefined && before.min <= min && before.max >= max) continue
      const row = {
        id: one.id,
        labels: one.labels,
        minTime: Math.min(min, before?.min ?? min),
        maxTime: Math.max(max, before?.max ?? max)
      }
      if (size >= REMEMBERED) {
        written.clear()
        size = 0
      }
      if (known === undefined || !written.has(database)) written.set(database, (known = new Map()))
      if (before === undefined) size++
      known.set(one.id, { min: row.minTime, max: row.maxTime })
      rows.push(row)
    }
    return rows
  }

  /** The database is gone: a database made again under its name starts with no rows. */
  const forget = (database: string) => {
    size -= written.get(database)?.size ?? 0
    written.delete(database)
  }

  return { rowsFor, forget }
}

export type SeriesRowsWritten = ReturnType<typeof makeSeriesRowsWritten>
