/**
 * The samples statement's `Native` result (id, times, values) read into typed arrays.
 * Bytes are built by hand from the format's layout (`test/support/nativeSamples.ts`), the
 * stale marker from its documented bits.
 */
import { describe, expect, it } from "@effect/vitest"
import { sampleRows } from "../../src/prometheus/promql/read/SampleRows.js"
import { nativeSamples as block } from "../support/nativeSamples.js"

const STALE = 0x7ff0000000000002n

describe("samples rows", () => {
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
