/**
 * The body of a samples insert as `RowBinary`: per sample its series id (UInt64), its
 * time in ms (Int64) and its value's 64 bits (UInt64), each little-endian, written while
 * the request is read (a `SampleSink`). The value goes as its bits, which the table turns
 * back into the Float64 (MetricsTables.ts): a NaN's payload, the stale marker's included,
 * arrives as sent. Binary rows cost neither side any digits: the same rows as
 * `TabSeparated` text (an `id \t ms \t bits` line each) took time to print here and far
 * longer for chDB to insert (NativeSession.ts).
 */
import { setInt64 } from "../engine/RowBinary.js"
import type { SampleSink } from "./WriteRequestReader.js"

/** One sample's row: id, time, bits. */
export const ROW_BYTES = 24
// Pieces of at most about a megabyte, whole rows each.
const PIECE_ROWS = Math.floor((1 << 20) / ROW_BYTES)

/** A series' id (the decimal text of a UInt64) as the first 8 bytes of its rows. */
export const idColumn = (id: string): Uint8Array => {
  const bytes = Buffer.alloc(8)
  bytes.writeBigUInt64LE(BigInt(id))
  return bytes
}

export class SamplesBody implements SampleSink {
  private readonly pieces: Array<Uint8Array> = []
  private piece: Uint8Array
  private view: DataView
  private at = 0
  // The series id's two little-endian words: two stores a row instead of a copy call.
  private idLow = 0
  private idHigh = 0
  /** The times of the current series' samples: its first and last, in time. */
  minTime = Infinity
  maxTime = -Infinity

  /** `rows`: how many samples will be written, so each piece is made at its size. */
  constructor(private rows: number) {
    this.piece = this.nextPiece()
    this.view = new DataView(this.piece.buffer, this.piece.byteOffset, this.piece.byteLength)
  }

  private nextPiece() {
    return new Uint8Array(Math.min(PIECE_ROWS, Math.max(1, this.rows)) * ROW_BYTES)
  }

  /** The samples that follow are the series' whose `idColumn` this is. */
  series(id: Uint8Array) {
    const words = new DataView(id.buffer, id.byteOffset, 8)
    this.idLow = words.getUint32(0, true)
    this.idHigh = words.getUint32(4, true)
    this.minTime = Infinity
    this.maxTime = -Infinity
  }

  sample(time: number, low: number, high: number) {
    if (this.at + ROW_BYTES > this.piece.length) {
      this.pieces.push(this.piece.subarray(0, this.at))
      this.piece = this.nextPiece()
      this.view = new DataView(this.piece.buffer, this.piece.byteOffset, this.piece.byteLength)
      this.at = 0
    }
    this.rows--
    const at = this.at
    this.view.setUint32(at, this.idLow, true)
    this.view.setUint32(at + 4, this.idHigh, true)
    setInt64(this.view, at + 8, time)
    this.view.setUint32(at + 16, low, true)
    this.view.setUint32(at + 20, high, true)
    this.at = at + ROW_BYTES
    if (time < this.minTime) this.minTime = time
    if (time > this.maxTime) this.maxTime = time
  }

  finish(): Array<Uint8Array> {
    if (this.at > 0) this.pieces.push(this.piece.subarray(0, this.at))
    this.at = 0
    return this.pieces
  }
}
