/**
 * The samples insert body: one `RowBinary` row per sample (id UInt64, time Int64, bits
 * UInt64). Rows are read back by Node's 64-bit readers and expected values come from
 * BigInt and String, not from the writer's own code.
 */
import { describe, expect, it } from "@effect/vitest"
import { idColumn, SamplesBody } from "../../src/prometheus/SamplesBody.js"
import { samplesRows } from "../support/remoteWrite.js"

const TIMES = [
  0,
  1,
  9,
  10,
  99,
  1_000,
  99_999_999,
  100_000_000,
  100_000_001,
  1_767_225_600_123,
  -1_767_225_600_123,
  -1,
  2 ** 53 - 1
]
const WORDS: ReadonlyArray<readonly [high: number, low: number]> = [
  [0, 0],
  [0, 1],
  [0, 9_999],
  [0, 10_000],
  [0, 4_294_967_295],
  [1, 0],
  [0x7ff00000, 2],
  [0x3ff00000, 0],
  [0xffffffff, 0xffffffff],
  [0x80000000, 0],
  [12_345, 67_890]
]

const written = (rows: ReadonlyArray<readonly [time: number, high: number, low: number]>) => {
  const body = new SamplesBody(rows.length)
  body.series(idColumn("18446744073709551615"))
  for (const [time, high, low] of rows) body.sample(time, low, high)
  return samplesRows(body.finish())
}

const expected = (rows: ReadonlyArray<readonly [time: number, high: number, low: number]>) =>
  rows.map(
    ([time, high, low]) =>
      `18446744073709551615\t${String(time)}\t${((BigInt(high) << 32n) | BigInt(low)).toString()}`
  )

describe("samples insert body", () => {
  it("writes every time and every 64-bit value exactly", () => {
    const rows = TIMES.flatMap((time) => WORDS.map(([high, low]) => [time, high, low] as const))
    expect(written(rows)).toEqual(expected(rows))
  })

  it("matches BigInt on a seeded spread of values", () => {
    let seed = 12_345
    const next = () => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648)
    const rows = Array.from({ length: 5_000 }, () => {
      const time = next() * 1_000 + (next() % 1_000)
      return [time, next() * 2, next() * 2 + (next() % 2)] as const
    })
    expect(written(rows)).toEqual(expected(rows))
  })

  it("cuts a long body into pieces of whole rows", () => {
    let seed = 7
    const next = () => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648)
    const rows = Array.from({ length: 100_000 }, () => [next() * 1_000, next(), next()] as const)
    const body = new SamplesBody(rows.length)
    body.series(idColumn("18446744073709551615"))
    for (const [time, high, low] of rows) body.sample(time, low, high)
    const pieces = body.finish()
    expect(pieces.length).toBeGreaterThan(1)
    for (const piece of pieces) expect(piece.length % 24).toBe(0)
    expect(samplesRows(pieces)).toEqual(expected(rows))
  })

  it("keeps a series' first and last times", () => {
    const body = new SamplesBody(3)
    body.series(idColumn("7"))
    for (const time of [20, 10, 30]) body.sample(time, 0, 0)
    expect([body.minTime, body.maxTime]).toEqual([10, 30])
  })
})
