/**
 * The `Native` result of `samplesSql` (SeriesSql.ts) into one run of typed arrays per
 * series. The result is blocks, each the count of its columns and of its rows (LEB128),
 * then every column whole: its name and type (LEB128-length text) and its data,
 * little-endian: the ids as `UInt64`s; each array column as its rows' end offsets
 * (`UInt64`, counted from the block's first element) and then all its elements, row
 * after row. The times are offsets from the read's `timesBase` (`Array(UInt32)`), or ms
 * (`Array(Float64)`) when there is none; the values `Array(Float64)`, whose bytes are
 * copied as they are, a block's in one piece: no per-sample decoding.
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
  new Error(`a samples result of ${bytes.byteLength} bytes is not rows of (id, times, values)`)

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
  /** Each row's end, counted in elements from the block's first. */
  readonly endsAt: number
  readonly timesAt: number
  readonly valuesAt: number
  readonly samples: number
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
  const timeType = base === undefined ? "Array(Float64)" : "Array(UInt32)"
  const timeBytes = base === undefined ? 8 : 4
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  let at = 0
  const need = (size: number) => {
    if (at + size > bytes.length) throw malformed(bytes)
  }
  const length = () => {
    let count = 0
    let shift = 1
    for (;;) {
      need(1)
      const byte = bytes[at++]!
      count += (byte & 0x7f) * shift
      if (byte < 0x80) return count
      shift *= 128
    }
  }
  const text = () => {
    const size = length()
    need(size)
    const read = new TextDecoder().decode(bytes.subarray(at, at + size))
    at += size
    return read
  }
  /** A column's name and type, its type checked. */
  const column = (type: string) => {
    text()
    if (text() !== type) throw malformed(bytes)
  }
  /** The last of `rows` end offsets at `endsAt`: the column's element count. */
  const lastEnd = (endsAt: number, rows: number) =>
    rows === 0 ? 0 : Number(view.getBigUint64(endsAt + (rows - 1) * 8, true))
  const blocks: Array<Block> = []
  let total = 0
  while (at < bytes.length) {
    if (length() !== 3) throw malformed(bytes)
    const rows = length()
    column("UInt64")
    const idsAt = at
    need(rows * 8)
    at += rows * 8
    column(timeType)
    const endsAt = at
    need(rows * 8)
    at += rows * 8
    const samples = lastEnd(endsAt, rows)
    const timesAt = at
    need(samples * timeBytes)
    at += samples * timeBytes
    column("Array(Float64)")
    const valueEndsAt = at
    need(rows * 8)
    at += rows * 8
    for (let row = 0; row < rows; row++)
      if (
        view.getBigUint64(valueEndsAt + row * 8, true) !== view.getBigUint64(endsAt + row * 8, true)
      )
        throw malformed(bytes)
    const valuesAt = at
    need(samples * 8)
    at += samples * 8
    blocks.push({ rows, idsAt, endsAt, timesAt, valuesAt, samples })
    total += samples
  }
  const times = new Float64Array(total)
  const values = new Float64Array(total)
  const stale = new Uint8Array(total)
  // A block's values' bytes as they are, in one piece (a memory copy where the machine
  // is little-endian).
  const valueBytes = new Uint8Array(values.buffer)
  let into = 0
  for (const { samples, valuesAt } of blocks) {
    if (LITTLE_ENDIAN) valueBytes.set(bytes.subarray(valuesAt, valuesAt + samples * 8), into * 8)
    else
      for (let i = 0; i < samples; i++) values[into + i] = view.getFloat64(valuesAt + i * 8, true)
    into += samples
  }
  // Stale markers told by their bits before any value passes through a JavaScript
  // number: the values' words (in the machine's order) searched for the marker's high
  // word, which few other values hold, by the typed array's own search.
  const words = new Uint32Array(values.buffer)
  const [highWord, lowWord] = LITTLE_ENDIAN ? [1, 0] : [0, 1]
  for (let w = words.indexOf(STALE_HIGH); w !== -1; w = words.indexOf(STALE_HIGH, w + 1))
    if (w % 2 === highWord && words[w - highWord + lowWord] === STALE_LOW) stale[w >> 1] = 1
  into = 0
  for (const { samples, timesAt } of blocks) {
    if (base === undefined)
      for (let i = 0; i < samples; i++) times[into + i] = view.getFloat64(timesAt + i * 8, true)
    else if (LITTLE_ENDIAN && (bytes.byteOffset + timesAt) % 4 === 0) {
      const offsets = new Uint32Array(bytes.buffer, bytes.byteOffset + timesAt, samples)
      for (let i = 0; i < samples; i++) times[into + i] = base + offsets[i]!
    } else
      for (let i = 0; i < samples; i++)
        times[into + i] = base + view.getUint32(timesAt + i * 4, true)
    into += samples
  }
  const runs: Array<SampleRun> = []
  into = 0
  for (const { rows, idsAt, endsAt, samples } of blocks) {
    let start = 0
    for (let row = 0; row < rows; row++) {
      const end = Number(view.getBigUint64(endsAt + row * 8, true))
      if (end < start || end > samples) throw malformed(bytes)
      const from = into + start
      const to = into + end
      // Times in order, each later than the last, as the engine sorts them.
      let ordered = true
      for (let i = from + 1; i < to; i++) if (!(times[i]! > times[i - 1]!)) ordered = false
      const run = {
        times: times.subarray(from, to),
        values: values.subarray(from, to),
        stale: stale.subarray(from, to)
      }
      runs.push({
        id: view.getBigUint64(idsAt + row * 8, true).toString(),
        ...(ordered ? run : inOrder(run.times, run.values, run.stale))
      })
      start = end
    }
    into += samples
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
