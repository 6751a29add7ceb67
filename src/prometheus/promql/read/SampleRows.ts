/**
 * The `RowBinary` result of `samplesSql` (SeriesSql.ts) into one run of typed arrays per
 * series: rows of `id UInt64, ms Int64, value Float64`, little-endian, 24 bytes each,
 * in series and time order.
 */
import { STALE_HIGH, STALE_LOW } from "../../SampleBits.js"
const ROW = 24
const TWO_32 = 4294967296

export interface SampleRun {
  /** The series id as decimal text, as the series table is queried by it. */
  readonly id: string
  readonly times: Float64Array
  readonly values: Float64Array
  /** 1 where the sample is a stale marker. */
  readonly stale: Uint8Array
}

/** Throws on bytes that are not whole rows (a defect: the engine answered another shape). */
export const sampleRuns = (bytes: Uint8Array): Array<SampleRun> => {
  if (bytes.byteLength % ROW !== 0)
    throw new Error(`a samples result of ${bytes.byteLength} bytes is not rows of ${ROW}`)
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const rows = bytes.byteLength / ROW
  const runs: Array<SampleRun> = []
  let start = 0
  while (start < rows) {
    const idLow = view.getUint32(start * ROW, true)
    const idHigh = view.getUint32(start * ROW + 4, true)
    let end = start + 1
    while (
      end < rows &&
      view.getUint32(end * ROW, true) === idLow &&
      view.getUint32(end * ROW + 4, true) === idHigh
    )
      end++
    const times = new Float64Array(end - start)
    const values = new Float64Array(end - start)
    const stale = new Uint8Array(end - start)
    let n = 0
    for (let row = start; row < end; row++) {
      const at = row * ROW
      const time = view.getUint32(at + 8, true) + view.getInt32(at + 12, true) * TWO_32
      // A repeated timestamp (a retried write not merged yet) counts once.
      if (n > 0 && times[n - 1] === time) continue
      times[n] = time
      values[n] = view.getFloat64(at + 16, true)
      stale[n] =
        view.getUint32(at + 20, true) === STALE_HIGH && view.getUint32(at + 16, true) === STALE_LOW
          ? 1
          : 0
      n++
    }
    const whole = n === end - start
    runs.push({
      id: ((BigInt(idHigh) << 32n) | BigInt(idLow)).toString(),
      times: whole ? times : times.slice(0, n),
      values: whole ? values : values.slice(0, n),
      stale: whole ? stale : stale.slice(0, n)
    })
    start = end
  }
  return runs
}
