/**
 * The body of a samples insert: an `id \t ms \t bits` line per sample (MetricsTables.ts
 * says why the value goes as the integer of its bits), written as ASCII straight into
 * byte pieces. Measured on the demo data's one-minute bodies (9.5k samples): a string
 * per line, joined and encoded, took 2.5 ms a body and left most of the writer's garbage;
 * the bits' decimal text came from a BigInt each. Here both integers are printed from
 * doubles, the 64-bit one from its two 32-bit halves.
 */
import type { DecodedSeries } from "./RemoteWriteDecode.js"

const PIECE_BYTES = 1 << 20
// The longest line: a 20-digit id, a signed 20-digit time, 20-digit bits, three separators.
const LINE_MAX = 64
const TAB = 0x09
const NEWLINE = 0x0a
const ZERO = 0x30

/** Writes a non-negative integer below 2^53 at `at`; the index after it. */
const digits = (out: Uint8Array, at: number, n: number): number => {
  let length = 1
  for (let rest = n; rest >= 10; rest = Math.floor(rest / 10)) length++
  for (let index = at + length - 1; index >= at; index--) {
    const quotient = Math.floor(n / 10)
    out[index] = ZERO + (n - quotient * 10)
    n = quotient
  }
  return at + length
}

/**
 * `high * 2^32 + low` in decimal: 2^32 is 429496 * 10^4 + 7296, so the value is
 * `head * 10^4 + tail` with both parts exact in a double.
 */
const unsigned64 = (out: Uint8Array, at: number, high: number, low: number): number => {
  const below = high * 7296 + low
  const head = high * 429496 + Math.floor(below / 10_000)
  const tail = below % 10_000
  if (head === 0) return digits(out, at, tail)
  at = digits(out, at, head)
  out[at] = ZERO + Math.floor(tail / 1000)
  out[at + 1] = ZERO + (Math.floor(tail / 100) % 10)
  out[at + 2] = ZERO + (Math.floor(tail / 10) % 10)
  out[at + 3] = ZERO + (tail % 10)
  return at + 4
}

export const samplesBody = (series: ReadonlyArray<DecodedSeries>): Array<Uint8Array> => {
  const pieces: Array<Uint8Array> = []
  // Sized to the lines left, at most a piece: a small body does not hold a megabyte.
  let left = series.reduce((sum, one) => sum + one.timestamps.length, 0)
  const nextPiece = () => new Uint8Array(Math.min(PIECE_BYTES, left * LINE_MAX))
  let piece = nextPiece()
  let at = 0
  for (const one of series) {
    const id = Buffer.from(one.id, "latin1")
    // The platform's order, as the reader wrote them: little-endian on every target here.
    const words = new Uint32Array(one.bits.buffer, one.bits.byteOffset, one.bits.length * 2)
    for (let index = 0; index < one.timestamps.length; index++) {
      if (at + LINE_MAX > piece.length) {
        pieces.push(piece.subarray(0, at))
        piece = nextPiece()
        at = 0
      }
      left--
      piece.set(id, at)
      at += id.length
      piece[at++] = TAB
      const time = one.timestamps[index]!
      if (time < 0) piece[at++] = 0x2d
      at = digits(piece, at, Math.abs(time))
      piece[at++] = TAB
      at = unsigned64(piece, at, words[index * 2 + 1]!, words[index * 2]!)
      piece[at++] = NEWLINE
    }
  }
  if (at > 0) pieces.push(piece.subarray(0, at))
  return pieces
}
