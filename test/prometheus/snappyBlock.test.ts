/**
 * Snappy blocks as remote-write senders compress them (here by `snappyjs`, an independent
 * compressor) decode to the same bytes, whatever mix of literals and copies they hold,
 * and one buffer serves call after call; a block cut short, copying from before its
 * start, or shorter or longer than announced is refused.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Snappy from "snappyjs"
import { makeSnappyDecoder, NotSnappy } from "../../src/prometheus/SnappyBlock.js"

const random = (length: number, seed: number) => {
  const bytes = new Uint8Array(length)
  for (let index = 0; index < length; index++) {
    seed = (seed * 1103515245 + 12345) >>> 0
    bytes[index] = seed >>> 24
  }
  return bytes
}

const text = (length: number) =>
  new TextEncoder().encode(
    Array.from(
      { length },
      (_, i) => `series_${i % 97}{job="demo",instance="${i % 7}"} ${i}\n`
    ).join("")
  )

/** Random stretches, each followed by a repeat of its last 1-9 bytes for 4-15 bytes. */
const periodic = (stretches: number, seed: number) => {
  const out: Array<number> = []
  for (let index = 0; index < stretches; index++) {
    out.push(...random(8, seed + index))
    const back = 1 + (index % 9)
    const length = 4 + (index % 12)
    for (let k = 0; k < length; k++) out.push(out[out.length - back]!)
  }
  return Uint8Array.from(out)
}

describe("SnappyBlock", () => {
  it("decodes what a snappy compressor wrote, block after block on one decoder", () => {
    const decode = makeSnappyDecoder()
    const inputs = [
      new Uint8Array(0),
      new Uint8Array([7]),
      random(100, 1), // literals only
      new Uint8Array(70_000).fill(0x61), // a long run: copies that overlap what they write
      text(5_000), // short and long copies, 2-byte offsets
      Uint8Array.from({ length: 200_000 }, (_, i) => (i * 31) % 251), // over 64 kB apart
      random(300_000, 2), // long literals (4-byte lengths)
      periodic(3_000, 3), // short copies a few bytes back, overlapping what they write
      text(30) // a small one after large ones: the kept buffer is reused
    ]
    for (const input of inputs) {
      const block = Snappy.compress(input)
      expect(Buffer.from(decode(block)).equals(Buffer.from(input))).toBe(true)
    }
  })

  it("refuses a block cut short, one copying from before its start, and wrong lengths", () => {
    const decode = makeSnappyDecoder()
    const input = text(200)
    const block = Snappy.compress(input)
    expect(() => decode(block.subarray(0, block.length - 3))).toThrow(NotSnappy)
    expect(() => decode(new Uint8Array([]))).toThrow(NotSnappy)
    // Announces 4 bytes, then copies 4 from offset 1 with nothing written yet.
    expect(() => decode(new Uint8Array([4, 0b000_000_01, 1]))).toThrow(NotSnappy)
    // Announces 5 bytes, holds a 3-byte literal.
    expect(() => decode(new Uint8Array([5, 2 << 2, 1, 2, 3]))).toThrow(NotSnappy)
    // Announces 2 bytes, holds a 3-byte literal.
    expect(() => decode(new Uint8Array([2, 2 << 2, 1, 2, 3]))).toThrow(NotSnappy)
    expect(Buffer.from(decode(block)).equals(Buffer.from(input))).toBe(true)
  })
})
