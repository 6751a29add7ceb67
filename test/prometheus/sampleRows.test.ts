/**
 * The samples statement's `RowBinary` rows (id, times, values) read into typed arrays.
 * Bytes are built here by hand (little-endian words, LEB128 lengths), the stale marker
 * from its documented bits.
 */
import { describe, expect, it } from "@effect/vitest"
import { sampleRows } from "../../src/prometheus/promql/read/SampleRows.js"

const STALE = 0x7ff0000000000002n

const leb128 = (n: number) => {
  const out: Array<number> = []
  do {
    let byte = n % 128
    n = Math.floor(n / 128)
    if (n > 0) byte |= 0x80
    out.push(byte)
  } while (n > 0)
  return out
}

/** Times as `Float64` ms, or as `UInt32` offsets with `offsets`. */
const row = (
  id: bigint,
  times: ReadonlyArray<number>,
  values: ReadonlyArray<number | bigint>,
  offsets = false
) => {
  const size = offsets ? 4 : 8
  const words = Buffer.alloc(8 + size * times.length)
  words.writeBigUInt64LE(id, 0)
  times.forEach((t, i) =>
    offsets ? words.writeUInt32LE(t, 8 + i * 4) : words.writeDoubleLE(t, 8 + i * 8)
  )
  const valueBytes = Buffer.alloc(8 * values.length)
  values.forEach((v, i) =>
    typeof v === "bigint"
      ? valueBytes.writeBigUInt64LE(v, i * 8)
      : valueBytes.writeDoubleLE(v, i * 8)
  )
  return Buffer.concat([
    words.subarray(0, 8),
    Buffer.from(leb128(times.length)),
    words.subarray(8, 8 + size * times.length),
    Buffer.from(leb128(values.length)),
    valueBytes
  ])
}

describe("samples rows", () => {
  it("one run per series, ids as decimal text, stale markers flagged by their bits", () => {
    const many = Array.from({ length: 200 }, (_, i) => 1_767_225_600_000 + i * 15_000)
    const bytes = Buffer.concat([
      row(18446744073709551615n, [1000, 2000, 3000], [1.5, STALE, NaN]),
      row(
        7n,
        many,
        many.map((_, i) => i)
      )
    ])
    const { runs } = sampleRows(bytes, undefined)
    expect(runs.map((r) => r.id)).toEqual(["18446744073709551615", "7"])
    expect([...runs[0]!.times]).toEqual([1000, 2000, 3000])
    expect(runs[0]!.values[0]).toBe(1.5)
    expect([...runs[0]!.stale]).toEqual([0, 1, 0])
    expect(Number.isNaN(runs[0]!.values[2])).toBe(true)
    // 200 samples: a two-byte length.
    expect(runs[1]!.times.length).toBe(200)
    expect(runs[1]!.times[199]).toBe(1_767_225_600_000 + 199 * 15_000)
    expect(runs[1]!.values[199]).toBe(199)
  })

  it("samples out of order are put in order; a repeated time counts once", () => {
    const [run] = sampleRows(row(1n, [3000, 1000, 2000, 2000], [3, 1, STALE, 2]), undefined).runs
    expect([...run!.times]).toEqual([1000, 2000, 3000])
    expect(run!.values[0]).toBe(1)
    expect(run!.values[2]).toBe(3)
    expect([...run!.stale]).toEqual([0, 1, 0])
  })

  it("counts the samples the engine answered, a repeated time each time it came", () => {
    // A read cut by its LIMIT is told by this count, not by the runs' (deduplicated) lengths.
    const { runs, rows } = sampleRows(
      Buffer.concat([row(1n, [1000, 2000, 2000], [1, 2, 2]), row(2n, [1000], [5])]),
      undefined
    )
    expect(rows).toBe(4)
    expect(runs.map((r) => r.times.length)).toEqual([2, 1])
  })

  it("times read as UInt32 offsets are the base plus each offset, to the millisecond", () => {
    const base = 1_767_225_600_123
    const bytes = Buffer.concat([
      row(3n, [1, 15_000, 2 ** 32 - 1], [1, STALE, 3], true),
      row(4n, [500, 200], [2, 1], true)
    ])
    const { runs, rows } = sampleRows(bytes, base)
    expect(rows).toBe(5)
    expect([...runs[0]!.times]).toEqual([base + 1, base + 15_000, base + 2 ** 32 - 1])
    expect([...runs[0]!.values]).toEqual([1, runs[0]!.values[1], 3])
    expect([...runs[0]!.stale]).toEqual([0, 1, 0])
    // Out of order: put in order as Float64 times are.
    expect([...runs[1]!.times]).toEqual([base + 200, base + 500])
    expect([...runs[1]!.values]).toEqual([1, 2])
    // Offsets are 4 bytes each: the same bytes read as Float64 times are not whole rows.
    expect(() => sampleRows(bytes, undefined)).toThrow(/not rows/)
  })

  it("reads the same runs wherever the result starts in its buffer (times aligned or not)", () => {
    const base = 1_767_225_600_000
    const rows = Buffer.concat([
      row(7n, [10, 20, 30], [1.5, STALE, -2], true),
      row(8n, [5, 6, 7, 8], [4, 3, 2, 1], true)
    ])
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
    const bytes = row(1n, [1000, 2000], [1, 2])
    expect(() => sampleRows(bytes.subarray(0, bytes.length - 3), undefined)).toThrow(/not rows/)
  })
})
