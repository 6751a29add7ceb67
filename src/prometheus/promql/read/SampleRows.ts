/**
 * The `Native` result of `samplesSql` (SeriesSql.ts) into one run of typed arrays per
 * series. The result is blocks, each the count of its columns and of its rows (LEB128),
 * then every column whole: its name and type (LEB128-length text) and its data,
 * little-endian: a row per sample, in `(id, timestamp)` order; the ids as
 * `LowCardinality(UInt64)` (each block's distinct ids once, and an index into them a row:
 * one byte where a block holds up to 256 series), or as plain `UInt64`s where a server
 * converts them (`low_cardinality_allow_in_native_format = 0`), the times as offsets from
 * the read's `timesBase` (`UInt32`), or ms (`Float64`) when there is none, the values as
 * `Float64`s, whose bytes are copied as they are, a block's in one piece: no per-sample
 * decoding. A series' rows are the run of rows with its id, which may go on into the next
 * block.
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

/** A block's ids as a dictionary: `keys` distinct `UInt64`s, and an index into them a row. */
interface DictionaryIds {
  readonly keysAt: number
  readonly keys: number
  readonly indexesAt: number
  /** 1, 2 or 4. */
  readonly indexBytes: number
}

/** Where one block's columns are in the result: its ids a `UInt64` a row, or a dictionary. */
interface Block {
  readonly rows: number
  readonly ids: number | DictionaryIds
  readonly timesAt: number
  readonly valuesAt: number
}

/**
 * `LowCardinality`'s index word: the width of the indexes in its low byte, and flags: the
 * block carries its own dictionary ("additional keys"), and no dictionary shared with
 * other blocks (which a `Native` result does not use).
 */
const INDEX_BYTES = [1, 2, 4]
const NEEDS_GLOBAL_DICTIONARY = 0x100
const HAS_ADDITIONAL_KEYS = 0x200

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

  /** A little-endian `UInt64` count (below 2^53). */
  count() {
    this.need(8)
    const low = this.view.getUint32(this.at, true)
    const high = this.view.getUint32(this.at + 4, true)
    this.at += 8
    if (high >= 2 ** 21) throw malformed(this.bytes)
    return high * 2 ** 32 + low
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

  /** One block's columns: `(id, t, value Float64)`, a row per sample. */
  block(timeType: string, timeBytes: number): Block {
    if (this.length() !== 3) throw malformed(this.bytes)
    const rows = this.length()
    const ids = this.ids(rows)
    this.column(timeType)
    const timesAt = this.skip(rows * timeBytes)
    this.column("Float64")
    const valuesAt = this.skip(rows * 8)
    return { rows, ids, timesAt, valuesAt }
  }

  /**
   * A block's id column: where its `UInt64`s start, or its dictionary. A block of no rows
   * holds no data for it.
   */
  ids(rows: number): number | DictionaryIds {
    this.text()
    const type = this.text()
    if (type === "UInt64") return this.skip(rows * 8)
    if (type !== "LowCardinality(UInt64)") throw malformed(this.bytes)
    if (rows === 0) return this.at
    // The keys' serialization version, then the index word.
    if (this.count() !== 1) throw malformed(this.bytes)
    const word = this.count()
    const indexBytes = INDEX_BYTES[word & 0xff]
    if (
      indexBytes === undefined ||
      (word & NEEDS_GLOBAL_DICTIONARY) !== 0 ||
      (word & HAS_ADDITIONAL_KEYS) === 0
    )
      throw malformed(this.bytes)
    const keys = this.count()
    const keysAt = this.skip(keys * 8)
    if (this.count() !== rows) throw malformed(this.bytes)
    const indexesAt = this.skip(rows * indexBytes)
    return { keysAt, keys, indexesAt, indexBytes }
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

  /** The id `(low, high)` at row `row`, its bytes at `at`: a series starts if it differs. */
  private see(low: number, high: number, row: number, at: number) {
    if (low === this.low && high === this.high) return
    this.low = low
    this.high = high
    this.starts.push(row)
    this.idsAt.push(at)
  }

  /** A block's ids as words in the machine's order (little-endian): `[low, high]` a row. */
  addWords(words: Uint32Array, idsAt: number, rows: number, first: number) {
    for (let row = 0; row < rows; row++) {
      this.see(words[2 * row]!, words[2 * row + 1]!, first + row, idsAt + row * 8)
    }
  }

  /**
   * A block's dictionary-encoded ids: a key is read only where the index changes (a
   * series' first row in the block), and compared with the last block's last id.
   */
  addIndexes(view: DataView, bytes: Uint8Array, ids: DictionaryIds, rows: number, first: number) {
    const { keysAt, keys, indexesAt, indexBytes } = ids
    let previous = -1
    for (let row = 0; row < rows; row++) {
      const index =
        indexBytes === 1
          ? bytes[indexesAt + row]!
          : indexBytes === 2
            ? view.getUint16(indexesAt + row * 2, true)
            : view.getUint32(indexesAt + row * 4, true)
      if (index === previous) continue
      if (index >= keys) throw malformed(bytes)
      previous = index
      const at = keysAt + index * 8
      this.see(view.getUint32(at, true), view.getUint32(at + 4, true), first + row, at)
    }
  }

  add(view: DataView, idsAt: number, rows: number, first: number) {
    for (let row = 0; row < rows; row++) {
      const at = idsAt + row * 8
      this.see(view.getUint32(at, true), view.getUint32(at + 4, true), first + row, at)
    }
  }
}

/**
 * 32-bit words of a column of `bytes` (little-endian machine): a view where the column is
 * aligned, else a copy into `spare` (grown as needed). A result's columns start wherever
 * the text before them ends; reading them through a `DataView` cost a day's read ~20 ms.
 */
class AlignedWords {
  private spare = new ArrayBuffer(0)

  of(bytes: Uint8Array, at: number, count: number): Uint32Array {
    const offset = bytes.byteOffset + at
    if (offset % 4 === 0) return new Uint32Array(bytes.buffer, offset, count)
    if (this.spare.byteLength < count * 4) this.spare = new ArrayBuffer(count * 4)
    new Uint8Array(this.spare, 0, count * 4).set(bytes.subarray(at, at + count * 4))
    return new Uint32Array(this.spare, 0, count)
  }
}

// One each for ids and times, kept between reads (a read uses them synchronously): a
// block's columns are at most a block's rows.
const idWords = new AlignedWords()
const timeWords = new AlignedWords()

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

/**
 * `base` plus each offset, into `times` from `into`; where a time is not later than the one
 * before it (a series' first row, or rows out of order), its index goes into `descents`.
 */
const addBase = (
  times: Float64Array,
  into: number,
  offsets: Uint32Array,
  base: number,
  descents: Array<number>
) => {
  let previous = into === 0 ? -Infinity : times[into - 1]!
  for (let i = 0; i < offsets.length; i++) {
    const time = base + offsets[i]!
    if (!(time > previous)) descents.push(into + i)
    times[into + i] = time
    previous = time
  }
}

/** `addBase`'s `descents` of times read otherwise, in `[from, to)`. */
const descentsOf = (times: Float64Array, from: number, to: number, descents: Array<number>) => {
  for (let i = Math.max(from, 1); i < to; i++) if (!(times[i]! > times[i - 1]!)) descents.push(i)
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
  // Indices whose time is not later than the one before: series' starts, and rows out of order.
  const descents: Array<number> = []
  let into = 0
  for (const { rows, ids, valuesAt, timesAt } of blocks) {
    if (LITTLE_ENDIAN) valueBytes.set(bytes.subarray(valuesAt, valuesAt + rows * 8), into * 8)
    else readFloat64s(values, into, view, valuesAt, rows)
    if (typeof ids !== "number") series.addIndexes(view, bytes, ids, rows, into)
    else if (LITTLE_ENDIAN) series.addWords(idWords.of(bytes, ids, rows * 2), ids, rows, into)
    else series.add(view, ids, rows, into)
    if (base === undefined) {
      readFloat64s(times, into, view, timesAt, rows)
      descentsOf(times, into, into + rows, descents)
    } else if (LITTLE_ENDIAN)
      addBase(times, into, timeWords.of(bytes, timesAt, rows), base, descents)
    else {
      readUint32Times(times, into, view, timesAt, rows, base)
      descentsOf(times, into, into + rows, descents)
    }
    into += rows
  }
  markStale(values, stale)
  const runs: Array<SampleRun> = []
  const seen = new Set<string>()
  const { starts } = series
  let descent = 0
  for (let k = 0; k < starts.length; k++) {
    const from = starts[k]!
    const to = starts[k + 1] ?? total
    const id = view.getBigUint64(series.idsAt[k]!, true).toString()
    // The engine orders the rows by id: an id that comes back is another shape of result.
    if (seen.has(id)) throw malformed(bytes)
    seen.add(id)
    // Times in order, each later than the last, as the engine sorts them: no descent
    // after the run's first row.
    while (descent < descents.length && descents[descent]! <= from) descent++
    if (descent === descents.length || descents[descent]! >= to)
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
