/**
 * The samples statement's `Native` result built by hand from the format's layout, for
 * tests of its reading: one block of whole columns (little-endian words, LEB128 counts and
 * lengths, each array column as its rows' end offsets and then their elements).
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

/** Rows' end offsets, counted from the block's first element. */
const ends = (lengths: ReadonlyArray<number>) => {
  let end = 0
  return words(lengths.length, 8, (b, at, i) =>
    b.writeBigUInt64LE(BigInt((end += lengths[i]!)), at)
  )
}

/** One block of `rows`: times as `Float64` ms, or as `UInt32` offsets with `offsets`. */
export const nativeSamples = (rows: ReadonlyArray<SamplesRow>, offsets = false) => {
  const times = rows.flatMap((r) => r.times)
  const values = rows.flatMap((r) => r.values)
  return Buffer.concat([
    Buffer.from([...leb128(3), ...leb128(rows.length)]),
    text("id"),
    text("UInt64"),
    words(rows.length, 8, (b, at, i) => b.writeBigUInt64LE(rows[i]!.id, at)),
    text("groupArray(t)"),
    text(offsets ? "Array(UInt32)" : "Array(Float64)"),
    ends(rows.map((r) => r.times.length)),
    offsets
      ? words(times.length, 4, (b, at, i) => b.writeUInt32LE(times[i]!, at))
      : words(times.length, 8, (b, at, i) => b.writeDoubleLE(times[i]!, at)),
    text("groupArray(value)"),
    text("Array(Float64)"),
    ends(rows.map((r) => r.values.length)),
    words(values.length, 8, (b, at, i) => {
      const v = values[i]!
      if (typeof v === "bigint") b.writeBigUInt64LE(v, at)
      else b.writeDoubleLE(v, at)
    })
  ])
}
