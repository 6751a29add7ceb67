/**
 * The body of a samples insert: an `id \t ms \t bits` line per sample (MetricsTables.ts
 * says why the value goes as the integer of its bits), written as ASCII straight into
 * byte pieces while the request is read (a `SampleSink`). Measured on the demo data's
 * one-minute bodies (9.5k samples): a string per line, joined and encoded, took 2.5 ms
 * a body and left most of the writer's garbage; the bits' decimal text came from a
 * BigInt each. Here both integers are printed from doubles, the 64-bit one from its two
 * 32-bit halves, and a series' id is copied from the text its writer remembers.
 */
import type { SampleSink } from "./WriteRequestReader.js"

const PIECE_BYTES = 1 << 20
// The longest line: a 20-digit id, a signed 20-digit time, 20-digit bits, three separators.
const LINE_MAX = 64
const TAB = 0x09
const NEWLINE = 0x0a
const ZERO = 0x30
const MINUS = 0x2d

const EIGHT_DIGITS = 100_000_000

/** Writes `n` (an integer below 10^8) as exactly 8 digits ending before `end`. */
const eightDigits = (out: Uint8Array, end: number, n: number) => {
  for (let index = end - 1; index >= end - 8; index--) {
    const quotient = (n / 10) | 0
    out[index] = ZERO + (n - quotient * 10)
    n = quotient
  }
}

/** Writes an integer below 10^8 at `at`, without leading zeros; the index after it. */
const fewDigits = (out: Uint8Array, at: number, n: number): number => {
  const length =
    n < 10_000
      ? n < 100
        ? n < 10
          ? 1
          : 2
        : n < 1_000
          ? 3
          : 4
      : n < 1_000_000
        ? n < 100_000
          ? 5
          : 6
        : n < 10_000_000
          ? 7
          : 8
  for (let index = at + length - 1; index >= at; index--) {
    const quotient = (n / 10) | 0
    out[index] = ZERO + (n - quotient * 10)
    n = quotient
  }
  return at + length
}

/**
 * Writes a non-negative integer below 2^53 at `at`; the index after it. Cut into parts
 * below 10^8, which are 32-bit integers: their digits come from integer arithmetic, not
 * a floored division of a double each (a sample's line 180 → 125 ns, measured).
 */
const digits = (out: Uint8Array, at: number, n: number): number => {
  if (n < EIGHT_DIGITS) return fewDigits(out, at, n)
  const high = Math.floor(n / EIGHT_DIGITS)
  if (high < EIGHT_DIGITS) {
    at = fewDigits(out, at, high)
  } else {
    const top = Math.floor(high / EIGHT_DIGITS)
    at = fewDigits(out, at, top)
    eightDigits(out, at + 8, high - top * EIGHT_DIGITS)
    at += 8
  }
  eightDigits(out, at + 8, n - high * EIGHT_DIGITS)
  return at + 8
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

/** A series' id as the start of its lines: its digits and a tab. */
export const idColumn = (id: string): Uint8Array => Buffer.from(`${id}\t`, "latin1")

export class SamplesBody implements SampleSink {
  private readonly pieces: Array<Uint8Array> = []
  private piece: Uint8Array
  private at = 0
  private id: Uint8Array = new Uint8Array(0)
  /** The times of the current series' samples: its first and last, in time. */
  minTime = Infinity
  maxTime = -Infinity

  /** `lines`: how many samples will be written, to size the pieces. */
  constructor(private lines: number) {
    this.piece = this.nextPiece()
  }

  // Sized to the lines left, at most a piece: a small body does not hold a megabyte.
  private nextPiece() {
    return new Uint8Array(Math.min(PIECE_BYTES, Math.max(1, this.lines) * LINE_MAX))
  }

  /** The samples that follow are the series' whose `idColumn` this is. */
  series(id: Uint8Array) {
    this.id = id
    this.minTime = Infinity
    this.maxTime = -Infinity
  }

  sample(time: number, low: number, high: number) {
    let piece = this.piece
    let at = this.at
    if (at + LINE_MAX > piece.length) {
      this.pieces.push(piece.subarray(0, at))
      piece = this.piece = this.nextPiece()
      at = 0
    }
    this.lines--
    const id = this.id
    for (let index = 0; index < id.length; index++) piece[at++] = id[index]!
    if (time < 0) piece[at++] = MINUS
    at = digits(piece, at, Math.abs(time))
    piece[at++] = TAB
    at = unsigned64(piece, at, high, low)
    piece[at++] = NEWLINE
    this.at = at
    if (time < this.minTime) this.minTime = time
    if (time > this.maxTime) this.maxTime = time
  }

  finish(): Array<Uint8Array> {
    if (this.at > 0) this.pieces.push(this.piece.subarray(0, this.at))
    this.at = 0
    return this.pieces
  }
}
