/**
 * The `Native` result of `samplesSql` (SeriesSql.ts) into one run of typed arrays per
 * series. The result is blocks, each the count of its columns and of its rows (LEB128),
 * then every column whole: its name and type (LEB128-length text) and its data,
 * little-endian: a row per sample, in `(id, timestamp)` order; the ids as `UInt64`s, the
 * times as offsets from the read's `timesBase` (`UInt32`), or ms (`Float64`) when there is
 * none, the values as `Float64`s, whose bytes are copied as they are, a block's in one
 * piece: no per-sample decoding. A series' rows are the run of rows with its id, which
 * may go on into the next block.
 */
import * as os from "node:os"
import { STALE_HIGH, STALE_LOW } from "../../SampleBits.js"

export interface SampleRun {
  /** The series id as decimal text, as the series table is queried by it. */
  readonly id: string
  readonly times: Float64Array
  readonly values: Float64Array
  /** 1 where the sample is a stale marker. */
  readonly stale: Uint8Array
}

const LITTLE_ENDIAN = os.endianness() === "LE"

const malformed = (bytes: Uint8Array) =>
  new Error(`a samples result of ${bytes.byteLength} bytes is not rows of (id, time, value)`)

/**
 * The samples in time order, a repeated timestamp (a retried write not merged yet) once,
 * the first of them. The engine hands them in order: anything else is put in order here.
 */
const inOrder = (times: Float64Array, values: Float64Array, stale: Uint8Array) => {
  const order = Array.from(times.keys())
  order.sort((a, b) => times[a]! - times[b]! || a - b)
  const keep = order.filter((index, i) => i === 0 || times[index] !== times[order[i - 1]!])
  return {
    times: Float64Array.from(keep, (i) => times[i]!),
    values: Float64Array.from(keep, (i) => values[i]!),
    stale: Uint8Array.from(keep, (i) => stale[i]!)
  }
}

/** Where one block's columns are in the result. */
interface Block {
  readonly rows: number
  readonly idsAt: number
  readonly timesAt: number
  readonly valuesAt: number
}

/**
 * A cursor over the result's bytes. A class, not closures made per call: a day's read
 * runs its loops over a million samples, and V8 threw away the optimized code of a
 * function whose inlined helpers were new closures at the next read ("wrong call
 * target"), running the rest of that read's loops unoptimized.
 */
class NativeCursor {
  readonly view: DataView
  at = 0

  constructor(readonly bytes: Uint8Array) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  }

  need(size: number) {
    if (this.at + size > this.bytes.length) throw malformed(this.bytes)
  }

  /** A LEB128 count. */
  length() {
    let count = 0
    let shift = 1
    for (;;) {
      this.need(1)
      const byte = this.bytes[this.at++]!
      count += (byte & 0x7f) * shift
      if (byte < 0x80) return count
      shift *= 128
    }
  }

  text() {
    const size = this.length()
    this.need(size)
    const read = new TextDecoder().decode(this.bytes.subarray(this.at, this.at + size))
    this.at += size
    return read
  }

  /** A column's name and type, its type checked. */
  column(type: string) {
    this.text()
    if (this.text() !== type) throw malformed(this.bytes)
  }

  /** Moves past `size` bytes, returning where they start. */
  skip(size: number) {
    this.need(size)
    const from = this.at
    this.at += size
    return from
  }

  /** One block's columns: `(id UInt64, t, value Float64)`, a row per sample. */
  block(timeType: string, timeBytes: number): Block {
    if (this.length() !== 3) throw malformed(this.bytes)
    const rows = this.length()
    this.column("UInt64")
    const idsAt = this.skip(rows * 8)
    this.column(timeType)
    const timesAt = this.skip(rows * timeBytes)
    this.column("Float64")
    const valuesAt = this.skip(rows * 8)
    return { rows, idsAt, timesAt, valuesAt }
  }
}

/**
 * Where each series' rows start: the rows where the id differs from the row before,
 * across blocks. The ids are compared as two 32-bit words (no `BigInt` per row).
 */
class SeriesStarts {
  /** The index in the whole result of each series' first row. */
  readonly starts: Array<number> = []
  /** Where each series' id is in the result's bytes. */
  readonly idsAt: Array<number> = []
  private low = -1
  private high = -1

  add(view: DataView, idsAt: number, rows: number, first: number) {
    for (let row = 0; row < rows; row++) {
      const at = idsAt + row * 8
      const low = view.getUint32(at, true)
      const high = view.getUint32(at + 4, true)
      if (low !== this.low || high !== this.high) {
        this.low = low
        this.high = high
        this.starts.push(first + row)
        this.idsAt.push(at)
      }
    }
  }
}

// Each loop over the samples is a function of its own, over typed arrays only, so that
// each is optimized once and stays so whatever the other loops met.

/** Stale markers told by their bits before any value passes through a JavaScript number:
 * the values' words (in the machine's order) searched for the marker's high word, which
 * few other values hold, by the typed array's own search. */
const markStale = (values: Float64Array, stale: Uint8Array) => {
  const words = new Uint32Array(values.buffer, values.byteOffset, values.length * 2)
  const [highWord, lowWord] = LITTLE_ENDIAN ? [1, 0] : [0, 1]
  for (let w = words.indexOf(STALE_HIGH); w !== -1; w = words.indexOf(STALE_HIGH, w + 1))
    if (w % 2 === highWord && words[w - highWord + lowWord] === STALE_LOW) stale[w >> 1] = 1
}

const addBase = (times: Float64Array, into: number, offsets: Uint32Array, base: number) => {
  for (let i = 0; i < offsets.length; i++) times[into + i] = base + offsets[i]!
}

const readUint32Times = (
  times: Float64Array,
  into: number,
  view: DataView,
  at: number,
  samples: number,
  base: number
) => {
  for (let i = 0; i < samples; i++) times[into + i] = base + view.getUint32(at + i * 4, true)
}

const readFloat64s = (
  into: Float64Array,
  from: number,
  view: DataView,
  at: number,
  samples: number
) => {
  for (let i = 0; i < samples; i++) into[from + i] = view.getFloat64(at + i * 8, true)
}

/** Whether each time in `[from, to)` is later than the one before. */
const ascending = (times: Float64Array, from: number, to: number) => {
  for (let i = from + 1; i < to; i++) if (!(times[i]! > times[i - 1]!)) return false
  return true
}

/**
 * The runs, and how many samples the engine answered: a repeated timestamp counts here
 * though its run holds it once, which tells a result cut by a `LIMIT` from a whole one.
 * Throws on bytes that are not such blocks (a defect: the engine answered another shape).
 * Every run's arrays are views of three arrays for the whole result.
 */
export const sampleRows = (
  bytes: Uint8Array,
  base: number | undefined
): { runs: Array<SampleRun>; rows: number } => {
  const timeType = base === undefined ? "Float64" : "UInt32"
  const timeBytes = base === undefined ? 8 : 4
  const cursor = new NativeCursor(bytes)
  const { view } = cursor
  const blocks: Array<Block> = []
  let total = 0
  while (cursor.at < bytes.length) {
    const block = cursor.block(timeType, timeBytes)
    blocks.push(block)
    total += block.rows
  }
  const times = new Float64Array(total)
  const values = new Float64Array(total)
  const stale = new Uint8Array(total)
  const series = new SeriesStarts()
  // A block's values' bytes as they are, in one piece (a memory copy where the machine
  // is little-endian).
  const valueBytes = new Uint8Array(values.buffer)
  let into = 0
  for (const { rows, idsAt, valuesAt, timesAt } of blocks) {
    if (LITTLE_ENDIAN) valueBytes.set(bytes.subarray(valuesAt, valuesAt + rows * 8), into * 8)
    else readFloat64s(values, into, view, valuesAt, rows)
    if (base === undefined) readFloat64s(times, into, view, timesAt, rows)
    else if (LITTLE_ENDIAN && (bytes.byteOffset + timesAt) % 4 === 0)
      addBase(times, into, new Uint32Array(bytes.buffer, bytes.byteOffset + timesAt, rows), base)
    else readUint32Times(times, into, view, timesAt, rows, base)
    series.add(view, idsAt, rows, into)
    into += rows
  }
  markStale(values, stale)
  const runs: Array<SampleRun> = []
  const seen = new Set<string>()
  const { starts } = series
  for (let k = 0; k < starts.length; k++) {
    const from = starts[k]!
    const to = starts[k + 1] ?? total
    const id = view.getBigUint64(series.idsAt[k]!, true).toString()
    // The engine orders the rows by id: an id that comes back is another shape of result.
    if (seen.has(id)) throw malformed(bytes)
    seen.add(id)
    // Times in order, each later than the last, as the engine sorts them.
    if (ascending(times, from, to))
      runs.push({
        id,
        times: times.subarray(from, to),
        values: values.subarray(from, to),
        stale: stale.subarray(from, to)
      })
    else {
      const sorted = inOrder(
        times.subarray(from, to),
        values.subarray(from, to),
        stale.subarray(from, to)
      )
      runs.push({ id, times: sorted.times, values: sorted.values, stale: sorted.stale })
    }
  }
  return { runs, rows: total }
}

/** One row of `windowCountsSql`'s result. */
export interface WindowCountRow {
  /** The series id as decimal text. */
  readonly id: string
  readonly windowEnd: number
  readonly samples: number
  readonly counted: number
}

const WINDOW_COUNT_ROW = 32

/** The `RowBinary` result of `windowCountsSql`: `(id UInt64, window_end Int64, UInt64, UInt64)`. */
export const windowCountRows = (bytes: Uint8Array): Array<WindowCountRow> => {
  if (bytes.byteLength % WINDOW_COUNT_ROW !== 0)
    throw new Error(`a window counts result of ${bytes.byteLength} bytes is not rows of 32`)
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const rows: Array<WindowCountRow> = []
  for (let at = 0; at < bytes.byteLength; at += WINDOW_COUNT_ROW)
    rows.push({
      id: view.getBigUint64(at, true).toString(),
      windowEnd: Number(view.getBigInt64(at + 8, true)),
      samples: Number(view.getBigUint64(at + 16, true)),
      counted: Number(view.getBigUint64(at + 24, true))
    })
  return rows
}

/** The `RowBinary` result of `sampleCountsSql`: `(id UInt64, count UInt64)` rows. */
export const sampleCounts = (bytes: Uint8Array): Map<string, number> => {
  if (bytes.byteLength % 16 !== 0)
    throw new Error(`a sample counts result of ${bytes.byteLength} bytes is not rows of 16`)
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const counts = new Map<string, number>()
  for (let at = 0; at < bytes.byteLength; at += 16)
    counts.set(view.getBigUint64(at, true).toString(), Number(view.getBigUint64(at + 8, true)))
  return counts
}
