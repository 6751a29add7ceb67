/**
 * The samples statement's `Native` result built by hand from the format's layout, for
 * tests of its reading: blocks of whole columns (little-endian words, LEB128 counts and
 * lengths), a row per sample.
 */
const leb128 = (n: number) => {
  const out: Array<number> = []
  do {
    let byte = n % 128
    n = Math.floor(n / 128)
    if (n > 0) byte |= 0x80
    out.push(byte)
  } while (n > 0)
  return out
}

const text = (value: string) =>
  Buffer.concat([Buffer.from(leb128(value.length)), Buffer.from(value)])

export interface SamplesRow {
  readonly id: bigint
  readonly times: ReadonlyArray<number>
  readonly values: ReadonlyArray<number | bigint>
}

const words = (
  count: number,
  size: number,
  write: (buffer: Buffer, at: number, i: number) => void
) => {
  const buffer = Buffer.alloc(count * size)
  for (let i = 0; i < count; i++) write(buffer, i * size, i)
  return buffer
}

/**
 * The rows' samples as blocks of at most `blockRows` rows (one block when not given): a
 * row per sample, times as `Float64` ms, or as `UInt32` offsets with `offsets`.
 */
export const nativeSamples = (
  rows: ReadonlyArray<SamplesRow>,
  offsets = false,
  blockRows = Infinity
) => {
  const ids = rows.flatMap((r) => r.times.map(() => r.id))
  const times = rows.flatMap((r) => r.times)
  const values = rows.flatMap((r) => r.values)
  const blocks: Array<Buffer> = []
  for (let from = 0; from === 0 || from < ids.length; from += blockRows) {
    const to = Math.min(ids.length, from + blockRows)
    const count = to - from
    blocks.push(
      Buffer.from([...leb128(3), ...leb128(count)]),
      text("id"),
      text("UInt64"),
      words(count, 8, (b, at, i) => b.writeBigUInt64LE(ids[from + i]!, at)),
      text("t"),
      text(offsets ? "UInt32" : "Float64"),
      offsets
        ? words(count, 4, (b, at, i) => b.writeUInt32LE(times[from + i]!, at))
        : words(count, 8, (b, at, i) => b.writeDoubleLE(times[from + i]!, at)),
      text("value"),
      text("Float64"),
      words(count, 8, (b, at, i) => {
        const v = values[from + i]!
        if (typeof v === "bigint") b.writeBigUInt64LE(v, at)
        else b.writeDoubleLE(v, at)
      })
    )
  }
  return Buffer.concat(blocks)
}
