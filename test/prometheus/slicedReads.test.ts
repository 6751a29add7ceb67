/**
 * A selector's samples read in slices of time: the slices cover the read's window once,
 * in whole ms, and each series' runs from consecutive slices join into one run, arrays
 * sized from the counts (and grown for samples written after counting).
 */
import { describe, expect, it } from "@effect/vitest"
import type { SampleRun } from "../../src/prometheus/promql/read/SampleRows.js"
import {
  seriesBatches,
  SliceGatherer,
  timeSlices
} from "../../src/prometheus/promql/read/SlicedReads.js"

const run = (
  id: string,
  times: ReadonlyArray<number>,
  stale: ReadonlyArray<number> = []
): SampleRun => ({
  id,
  times: Float64Array.from(times),
  values: Float64Array.from(times, (t) => t / 10),
  stale: Uint8Array.from(times, (_, i) => stale[i] ?? 0)
})

describe("sliced reads", () => {
  it("batches series in id order up to a slice's samples; a larger series is alone", () => {
    const counts = new Map([
      ["18446744073709551615", 4],
      ["9", 3],
      ["10", 2],
      ["2", 9],
      ["700", 1]
    ])
    // Numeric order (2 < 9 < 10 < 700 < 2^64 - 1), not the text's.
    expect(seriesBatches(counts, 5)).toEqual([
      { ids: ["2"], samples: 9 },
      { ids: ["9", "10"], samples: 5 },
      { ids: ["700", "18446744073709551615"], samples: 5 }
    ])
    expect(seriesBatches(new Map(), 5)).toEqual([])
  })

  it("slices cover (from, to] once, in whole ms, oldest first", () => {
    expect(timeSlices(1000.5, 1010.9, 3)).toEqual([
      { from: 1000, to: 1003 },
      { from: 1003, to: 1007 },
      { from: 1007, to: 1010 }
    ])
  })

  it("joins each series' runs in slice order", () => {
    const gathered = new SliceGatherer(
      new Map([
        ["1", 5],
        ["2", 2]
      ])
    )
    gathered.add([run("1", [10, 20]), run("2", [15])])
    gathered.add([run("1", [30, 40, 50], [0, 1, 0])])
    gathered.add([run("2", [55])])
    const runs = gathered.runs()
    expect(runs.map((r) => [r.id, [...r.times], [...r.values], [...r.stale]])).toEqual([
      ["1", [10, 20, 30, 40, 50], [1, 2, 3, 4, 5], [0, 0, 0, 1, 0]],
      ["2", [15, 55], [1.5, 5.5], [0, 0]]
    ])
  })

  it("grows a series' arrays past its count, and takes series counted after nothing", () => {
    const gathered = new SliceGatherer(new Map([["1", 1]]))
    gathered.add([run("1", [10]), run("9", [12])])
    gathered.add([run("1", [20, 30])])
    expect(gathered.runs().map((r) => [r.id, [...r.times]])).toEqual([
      ["1", [10, 20, 30]],
      ["9", [12]]
    ])
  })

  it("leaves out series counted but with no samples read", () => {
    const gathered = new SliceGatherer(
      new Map([
        ["1", 3],
        ["2", 4]
      ])
    )
    gathered.add([run("2", [1, 2])])
    expect(gathered.runs().map((r) => [r.id, r.times.length])).toEqual([["2", 2]])
  })
})
