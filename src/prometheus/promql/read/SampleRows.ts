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

/** `count` Float64s at `at`, copied (a memory copy where the machine is little-endian). */
const doubles = (bytes: Uint8Array, view: DataView, at: number, count: number) => {
  const out = new Float64Array(count)
  if (LITTLE_ENDIAN) new Uint8Array(out.buffer).set(bytes.subarray(at, at + count * 8))
  else for (let i = 0; i < count; i++) out[i] = view.getFloat64(at + i * 8, true)
  return out
}

/**
 * The samples in time order, a repeated timestamp (a retried write not merged yet) once,
 * the first of them. The engine hands them in order: anything else is put in order here.
 */
const inOrder = (times: Float64Array, values: Float64Array, stale: Uint8Array) => {
  let sorted = true
  let repeated = false
  for (let i = 1; i < times.length; i++) {
    if (times[i]! < times[i - 1]!) sorted = false
    else if (times[i] === times[i - 1]) repeated = true
  }
  if (sorted && !repeated) return { times, values, stale }
  const order = Array.from(times.keys())
  if (!sorted) order.sort((a, b) => times[a]! - times[b]! || a - b)
  const keep = order.filter((index, i) => i === 0 || times[index] !== times[order[i - 1]!])
  return {
    times: Float64Array.from(keep, (i) => times[i]!),
    values: Float64Array.from(keep, (i) => values[i]!),
    stale: Uint8Array.from(keep, (i) => stale[i]!)
  }
}

const staleFlags = (values: Float64Array) => {
  const stale = new Uint8Array(values.length)
  const view = new DataView(values.buffer, values.byteOffset, values.byteLength)
  for (let i = 0; i < values.length; i++) {
    const at = i * 8
    if (
      view.getUint32(at + 4, LITTLE_ENDIAN) === STALE_HIGH &&
      view.getUint32(at, LITTLE_ENDIAN) === STALE_LOW
    )
      stale[i] = 1
  }
  return stale
}

/** `count` times at `at`: `base` plus `UInt32` offsets, or `Float64`s without a base. */
const timesAt = (
  bytes: Uint8Array,
  view: DataView,
  at: number,
  count: number,
  base: number | undefined
) => {
  if (base === undefined) return doubles(bytes, view, at, count)
  const out = new Float64Array(count)
  for (let i = 0; i < count; i++) out[i] = base + view.getUint32(at + i * 4, true)
  return out
}

/**
 * The runs, and how many samples the engine answered: a repeated timestamp counts here
 * though its run holds it once, which tells a result cut by a `LIMIT` from a whole one.
 * Throws on bytes that are not whole rows (a defect: the engine answered another shape).
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
  const runs: Array<SampleRun> = []
  let rows = 0
  let at = 0
  while (at < bytes.length) {
    if (at + 8 > bytes.length) throw malformed(bytes)
    const idLow = view.getUint32(at, true)
    const idHigh = view.getUint32(at + 4, true)
    const [count, timesStart] = length(at + 8)
    const [valueCount, valuesAt] = length(timesStart + count * timeBytes)
    at = valuesAt + valueCount * 8
    if (valueCount !== count || at > bytes.length) throw malformed(bytes)
    rows += count
    // Stale markers told by their bits before any value passes through a JavaScript number.
    const values = doubles(bytes, view, valuesAt, count)
    runs.push({
      id: ((BigInt(idHigh) << 32n) | BigInt(idLow)).toString(),
      ...inOrder(timesAt(bytes, view, timesStart, count, base), values, staleFlags(values))
    })
  }
  return { runs, rows }
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
