/**
 * Series rows are written once per series and hour: a series seen again within the
 * hours its row covers adds nothing, a later hour widens the row, and databases are
 * remembered apart.
 */
import { describe, expect, it } from "@effect/vitest"
import type { DecodedSeries } from "../../src/prometheus/RemoteWriteDecode.js"
import { makeSeriesRowsWritten } from "../../src/prometheus/SeriesRowsWritten.js"

const HOUR = 3_600_000
const T0 = Date.UTC(2026, 0, 1, 10) // 10:00

const series = (id: string, minTime: number, maxTime: number, samples = 2): DecodedSeries => ({
  id,
  labels: { __name__: `m_${id}` },
  samples,
  minTime,
  maxTime
})

describe("SeriesRowsWritten", () => {
  it("a row per new series and per new hour, widened to whole hours", () => {
    const written = makeSeriesRowsWritten()
    const first = written.rowsFor("db", [series("1", T0 + 60_000, T0 + 120_000)])
    expect(first).toEqual([
      { id: "1", labels: { __name__: "m_1" }, minTime: T0, maxTime: T0 + HOUR - 1 }
    ])
    // Within the hour its row covers: nothing to write; a series without samples neither.
    expect(written.rowsFor("db", [series("1", T0 + 30 * 60_000, T0 + 40 * 60_000)])).toEqual([])
    expect(written.rowsFor("db", [series("2", T0, T0, 0)])).toEqual([])
    // Into the next hour: the row again, covering both hours.
    expect(written.rowsFor("db", [series("1", T0 + HOUR + 5_000, T0 + HOUR + 9_000)])).toEqual([
      { id: "1", labels: { __name__: "m_1" }, minTime: T0, maxTime: T0 + 2 * HOUR - 1 }
    ])
    // An earlier hour (an out-of-order write) widens it downwards.
    expect(
      written.rowsFor("db", [series("1", T0 - HOUR + 1, T0 - 1)]).map((row) => row.minTime)
    ).toEqual([T0 - HOUR])
  })

  it("databases are apart: the same series in another database gets its own row", () => {
    const written = makeSeriesRowsWritten()
    expect(written.rowsFor("a", [series("1", T0, T0)])).toHaveLength(1)
    expect(written.rowsFor("b", [series("1", T0, T0)])).toHaveLength(1)
    expect(written.rowsFor("a", [series("1", T0, T0)])).toHaveLength(0)
  })
})
