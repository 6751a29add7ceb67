/**
 * The samples statement's `Native` result (id, times, values) read into typed arrays.
 * Bytes are built by hand from the format's layout (`test/support/nativeSamples.ts`), the
 * stale marker from its documented bits.
 */
import { describe, expect, it } from "@effect/vitest"
import { sampleRows } from "../../src/prometheus/promql/read/SampleRows.js"
import { nativeSamples } from "../support/nativeSamples.js"
import type { IdColumn, SamplesRow } from "../support/nativeSamples.js"

const STALE = 0x7ff0000000000002n

// The engine writes ids as `LowCardinality` (one-byte indexes up to 256 series a block, two
// past); a server set to convert them writes plain `UInt64`s. Every case is read both ways.
const ID_COLUMNS: ReadonlyArray<IdColumn> = [
  { type: "UInt64" },
  { type: "LowCardinality(UInt64)", indexBytes: 1 },
  { type: "LowCardinality(UInt64)", indexBytes: 2 },
  { type: "LowCardinality(UInt64)", indexBytes: 4 }
]

describe.each(ID_COLUMNS)("samples rows, ids as $type ($indexBytes)", (ids) => {
  const block = (rows: ReadonlyArray<SamplesRow>, offsets = false, blockRows = Infinity) =>
    nativeSamples(rows, offsets, blockRows, ids)

  it("one run per series, ids as decimal text, stale markers flagged by their bits", () => {
    const many = Array.from({ length: 200 }, (_, i) => 1_767_225_600_000 + i * 15_000)
    const bytes = block([
      { id: 18446744073709551615n, times: [1000, 2000, 3000], values: [1.5, STALE, NaN] },
      { id: 7n, times: many, values: many.map((_, i) => i) }
    ])
    const { runs } = sampleRows(bytes, undefined)
    expect(runs.map((r) => r.id)).toEqual(["18446744073709551615", "7"])
    expect([...runs[0]!.times]).toEqual([1000, 2000, 3000])
    expect(runs[0]!.values[0]).toBe(1.5)
    expect([...runs[0]!.stale]).toEqual([0, 1, 0])
    expect(Number.isNaN(runs[0]!.values[2])).toBe(true)
    expect(runs[1]!.times.length).toBe(200)
    expect(runs[1]!.times[199]).toBe(1_767_225_600_000 + 199 * 15_000)
    expect(runs[1]!.values[199]).toBe(199)
  })

  it("samples out of order are put in order; a repeated time counts once", () => {
    const [run] = sampleRows(
      block([{ id: 1n, times: [3000, 1000, 2000, 2000], values: [3, 1, STALE, 2] }]),
      undefined
    ).runs
    expect([...run!.times]).toEqual([1000, 2000, 3000])
    expect(run!.values[0]).toBe(1)
    expect(run!.values[2]).toBe(3)
    expect([...run!.stale]).toEqual([0, 1, 0])
  })

  it("counts the samples the engine answered, a repeated time each time it came", () => {
    // A read cut by its LIMIT is told by this count, not by the runs' (deduplicated) lengths.
    const { runs, rows } = sampleRows(
      block([
        { id: 1n, times: [1000, 2000, 2000], values: [1, 2, 2] },
        { id: 2n, times: [1000], values: [5] }
      ]),
      undefined
    )
    expect(rows).toBe(4)
    expect(runs.map((r) => r.times.length)).toEqual([2, 1])
  })

  it("times read as UInt32 offsets are the base plus each offset, to the millisecond", () => {
    const base = 1_767_225_600_123
    const bytes = block(
      [
        { id: 3n, times: [1, 15_000, 2 ** 32 - 1], values: [1, STALE, 3] },
        { id: 4n, times: [500, 200], values: [2, 1] }
      ],
      true
    )
    const { runs, rows } = sampleRows(bytes, base)
    expect(rows).toBe(5)
    expect([...runs[0]!.times]).toEqual([base + 1, base + 15_000, base + 2 ** 32 - 1])
    expect([...runs[0]!.values]).toEqual([1, runs[0]!.values[1], 3])
    expect([...runs[0]!.stale]).toEqual([0, 1, 0])
    // Out of order: put in order as Float64 times are.
    expect([...runs[1]!.times]).toEqual([base + 200, base + 500])
    expect([...runs[1]!.values]).toEqual([1, 2])
    // Offsets are `UInt32`s: the same bytes read as a result of Float64 times are refused.
    expect(() => sampleRows(bytes, undefined)).toThrow(/not rows/)
  })

  it("reads the same runs wherever the result starts in its buffer (times aligned or not)", () => {
    const base = 1_767_225_600_000
    const rows = block(
      [
        { id: 7n, times: [10, 20, 30], values: [1.5, STALE, -2] },
        { id: 8n, times: [5, 6, 7, 8], values: [4, 3, 2, 1] }
      ],
      true
    )
    for (let shift = 0; shift < 4; shift++) {
      const buffer = new Uint8Array(rows.length + shift)
      buffer.set(rows, shift)
      const { runs } = sampleRows(buffer.subarray(shift), base)
      expect(runs.map((r) => [...r.times])).toEqual([
        [base + 10, base + 20, base + 30],
        [base + 5, base + 6, base + 7, base + 8]
      ])
      expect([...runs[0]!.stale, ...runs[1]!.stale]).toEqual([0, 1, 0, 0, 0, 0, 0])
      expect([...runs[1]!.values]).toEqual([4, 3, 2, 1])
    }
  })

  it("bytes cut short are a defect, not fewer samples", () => {
    const bytes = block([{ id: 1n, times: [1000, 2000], values: [1, 2] }])
    expect(() => sampleRows(bytes.subarray(0, bytes.length - 3), undefined)).toThrow(/not rows/)
  })

  it("reads every block, and a block of no rows adds nothing", () => {
    const bytes = Buffer.concat([
      block([{ id: 1n, times: [1000, 2000], values: [1, 2] }]),
      block([]),
      block([
        { id: 2n, times: [500], values: [STALE] },
        { id: 3n, times: [1500, 2500, 3500], values: [7, 8, 9] }
      ])
    ])
    const { runs, rows } = sampleRows(bytes, undefined)
    expect(rows).toBe(6)
    expect(
      runs.map((r) => [r.id, [...r.times], [...r.values].map((v, i) => (r.stale[i] ? "stale" : v))])
    ).toEqual([
      ["1", [1000, 2000], [1, 2]],
      ["2", [500], ["stale"]],
      ["3", [1500, 2500, 3500], [7, 8, 9]]
    ])
    expect(sampleRows(new Uint8Array(0), undefined)).toEqual({ runs: [], rows: 0 })
  })

  it("a series whose rows go on into the next block is one run", () => {
    const base = 1_767_225_600_000
    const rows = [
      { id: 5n, times: [1, 2, 3, 4, 5], values: [1, 2, STALE, 4, 5] },
      { id: 6n, times: [7], values: [7] },
      { id: 2n ** 63n, times: [8, 9, 10], values: [8, 9, 10] }
    ]
    for (const blockRows of [1, 2, 3, 4, 9]) {
      const { runs, rows: count } = sampleRows(block(rows, true, blockRows), base)
      expect(count).toBe(9)
      expect(
        runs.map((r) => [
          r.id,
          [...r.times].map((t) => t - base),
          [...r.values].map((v, i) => (r.stale[i] ? "stale" : v))
        ])
      ).toEqual([
        ["5", [1, 2, 3, 4, 5], [1, 2, "stale", 4, 5]],
        ["6", [7], [7]],
        ["9223372036854775808", [8, 9, 10], [8, 9, 10]]
      ])
    }
  })

  it("ids told apart by either of their halves", () => {
    // Two ids that share their low 32 bits, and two that share their high ones.
    const { runs } = sampleRows(
      block([
        { id: 1n, times: [1], values: [1] },
        { id: (1n << 32n) | 1n, times: [2], values: [2] },
        { id: (1n << 32n) | 2n, times: [3], values: [3] }
      ]),
      undefined
    )
    expect(runs.map((r) => [r.id, r.times.length])).toEqual([
      ["1", 1],
      ["4294967297", 1],
      ["4294967298", 1]
    ])
  })

  it("an id that comes back after another is a defect (the engine orders rows by id)", () => {
    const good = block([
      { id: 1n, times: [1000], values: [1] },
      { id: 2n, times: [1000], values: [2] }
    ])
    const back = block([
      { id: 1n, times: [1000], values: [1] },
      { id: 2n, times: [1000], values: [2] },
      { id: 1n, times: [2000], values: [3] }
    ])
    expect(sampleRows(good, undefined).runs.length).toBe(2)
    expect(() => sampleRows(back, undefined)).toThrow(/not rows/)
  })
})

describe("samples rows, ids as LowCardinality", () => {
  const dictionary: IdColumn = { type: "LowCardinality(UInt64)", indexBytes: 1 }
  const rows = [
    { id: 5n, times: [1000, 2000], values: [1, 2] },
    { id: 9n, times: [1000], values: [3] }
  ]
  // Where the index word is: after the block's counts, the id column's name and type, and
  // the keys' serialization version.
  const indexWordAt = (bytes: Uint8Array) => bytes.indexOf(0x29) + 1 + 8

  it("an index past the block's keys is a defect", () => {
    const bytes = nativeSamples(rows, false, Infinity, dictionary)
    expect(sampleRows(bytes, undefined).runs.map((r) => r.id)).toEqual(["5", "9"])
    const broken = Uint8Array.from(bytes)
    // Keys [0, 5, 9]: index 3 names none of them. The indexes follow the row count.
    const indexesAt = broken.indexOf(3, indexWordAt(broken) + 8 + 8 + 3 * 8) + 8
    broken[indexesAt + 2] = 3
    expect(() => sampleRows(broken, undefined)).toThrow(/not rows/)
  })

  it("a dictionary shared between blocks, or none, or another key type, is refused", () => {
    const bytes = nativeSamples(rows, false, Infinity, dictionary)
    const at = indexWordAt(bytes)
    expect(bytes[at + 1]).toBe(0x06)
    const shared = Uint8Array.from(bytes)
    shared[at + 1] = 0x07
    expect(() => sampleRows(shared, undefined)).toThrow(/not rows/)
    const noKeys = Uint8Array.from(bytes)
    noKeys[at + 1] = 0x04
    expect(() => sampleRows(noKeys, undefined)).toThrow(/not rows/)
    const wide = Uint8Array.from(bytes)
    wide[at] = 3
    expect(() => sampleRows(wide, undefined)).toThrow(/not rows/)
    const text = Buffer.from(bytes).toString("latin1").replace("(UInt64)", "(UInt32)")
    expect(() => sampleRows(Buffer.from(text, "latin1"), undefined)).toThrow(/not rows/)
  })
})
