/**
 * The `RowBinary` result of `samplesSql` (SeriesSql.ts) into one run of typed arrays per
 * series: a row per series of `id UInt64, times Array(UInt32 | Float64), values
 * Array(Float64)`, little-endian, each array a LEB128 length and then its elements. The
 * values' bytes are copied as they are into the run's `Float64Array`: no per-sample
 * decoding; times are offsets from the read's `timesBase` (`UInt32`), or ms (`Float64`)
 * when there is none.
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

/** One row's place in the result: its id's words, its sample count, where its arrays start. */
interface Row {
  readonly idLow: number
  readonly idHigh: number
  readonly count: number
  readonly timesAt: number
  readonly valuesAt: number
}

/**
 * The runs, and how many samples the engine answered: a repeated timestamp counts here
 * though its run holds it once, which tells a result cut by a `LIMIT` from a whole one.
 * Throws on bytes that are not whole rows (a defect: the engine answered another shape).
 * Every run's arrays are views of three arrays for the whole result, filled in one pass
 * each: a day of 200 series made 600 arrays (and as many zero-fillings) before.
 */
export const sampleRows = (
  bytes: Uint8Array,
  base: number | undefined
): { runs: Array<SampleRun>; rows: number } => {
  const timeBytes = base === undefined ? 8 : 4
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const length = (at: number): readonly [count: number, next: number] => {
    let count = 0
    let shift = 1
    for (;;) {
      if (at >= bytes.length) throw malformed(bytes)
      const byte = bytes[at++]!
      count += (byte & 0x7f) * shift
      if (byte < 0x80) return [count, at]
      shift *= 128
    }
  }
  const rows: Array<Row> = []
  let total = 0
  let at = 0
  while (at < bytes.length) {
    if (at + 8 > bytes.length) throw malformed(bytes)
    const idLow = view.getUint32(at, true)
    const idHigh = view.getUint32(at + 4, true)
    const [count, timesAt] = length(at + 8)
    const [valueCount, valuesAt] = length(timesAt + count * timeBytes)
    at = valuesAt + valueCount * 8
    if (valueCount !== count || at > bytes.length) throw malformed(bytes)
    rows.push({ idLow, idHigh, count, timesAt, valuesAt })
    total += count
  }
  const times = new Float64Array(total)
  const values = new Float64Array(total)
  const stale = new Uint8Array(total)
  // The values' bytes as they are (a memory copy where the machine is little-endian).
  const valueBytes = new Uint8Array(values.buffer)
  let into = 0
  for (const { count, valuesAt } of rows) {
    if (LITTLE_ENDIAN) valueBytes.set(bytes.subarray(valuesAt, valuesAt + count * 8), into * 8)
    else for (let i = 0; i < count; i++) values[into + i] = view.getFloat64(valuesAt + i * 8, true)
    into += count
  }
  // Stale markers told by their bits before any value passes through a JavaScript
  // number: the values' words (in the machine's order) searched for the marker's high
  // word, which few other values hold, by the typed array's own search.
  const words = new Uint32Array(values.buffer)
  const [highWord, lowWord] = LITTLE_ENDIAN ? [1, 0] : [0, 1]
  for (let w = words.indexOf(STALE_HIGH); w !== -1; w = words.indexOf(STALE_HIGH, w + 1))
    if (w % 2 === highWord && words[w - highWord + lowWord] === STALE_LOW) stale[w >> 1] = 1
  // The `UInt32` offsets of a row, copied where they are not 4-byte aligned.
  let offsets = new Uint32Array(0)
  const runs: Array<SampleRun> = []
  into = 0
  for (const row of rows) {
    const { count, timesAt } = row
    // Times in order, each later than the last, as the engine sorts them (checked as they
    // are written: offsets as integers).
    let ordered = true
    if (base === undefined) {
      for (let i = 0; i < count; i++) times[into + i] = view.getFloat64(timesAt + i * 8, true)
      for (let i = into + 1; i < into + count; i++)
        if (!(times[i]! > times[i - 1]!)) ordered = false
    } else {
      let words32: Uint32Array
      const start = bytes.byteOffset + timesAt
      if (LITTLE_ENDIAN && start % 4 === 0) words32 = new Uint32Array(bytes.buffer, start, count)
      else {
        if (offsets.length < count) offsets = new Uint32Array(Math.max(count, offsets.length * 2))
        if (LITTLE_ENDIAN)
          new Uint8Array(offsets.buffer).set(bytes.subarray(timesAt, timesAt + count * 4))
        else for (let i = 0; i < count; i++) offsets[i] = view.getUint32(timesAt + i * 4, true)
        words32 = offsets
      }
      let previous = -1
      for (let i = 0; i < count; i++) {
        const offset = words32[i]!
        if (offset <= previous) ordered = false
        previous = offset
        times[into + i] = base + offset
      }
    }
    const run = {
      times: times.subarray(into, into + count),
      values: values.subarray(into, into + count),
      stale: stale.subarray(into, into + count)
    }
    runs.push({
      id: ((BigInt(row.idHigh) << 32n) | BigInt(row.idLow)).toString(),
      ...(ordered ? run : inOrder(run.times, run.values, run.stale))
    })
    into += count
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
