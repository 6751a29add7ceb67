/**
 * The samples statement's `Native` result built by hand from the format's layout, for
 * tests of its reading: blocks of whole columns (little-endian words, LEB128 counts and
 * lengths), a row per sample; the ids as plain `UInt64`s or as `LowCardinality(UInt64)`
 * as ClickHouse writes it in `Native` (per block: the keys' serialization version 1, the
 * index word — the indexes' width, "additional keys", "update dictionary" —, the block's
 * keys with the type's default first, then an index a row).
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

/** How the id column is written: plain, or a dictionary with indexes of 1, 2 or 4 bytes. */
export type IdColumn =
  | { readonly type: "UInt64" }
  | { readonly type: "LowCardinality(UInt64)"; readonly indexBytes: 1 | 2 | 4 }

const uint64 = (n: number | bigint) => {
  const buffer = Buffer.alloc(8)
  buffer.writeBigUInt64LE(BigInt(n))
  return buffer
}

const idColumn = (ids: ReadonlyArray<bigint>, encoding: IdColumn) => {
  if (encoding.type === "UInt64")
    return [text("UInt64"), words(ids.length, 8, (b, at, i) => b.writeBigUInt64LE(ids[i]!, at))]
  if (ids.length === 0) return [text(encoding.type)]
  const keys = [0n]
  const indexOf = new Map([[0n, 0]])
  const indexes = ids.map((id) => {
    let index = indexOf.get(id)
    if (index === undefined) indexOf.set(id, (index = keys.push(id) - 1))
    return index
  })
  const width = { 1: 0, 2: 1, 4: 2 }[encoding.indexBytes]
  return [
    text(encoding.type),
    uint64(1),
    uint64(width | 0x200 | 0x400),
    uint64(keys.length),
    ...keys.map(uint64),
    uint64(ids.length),
    words(ids.length, encoding.indexBytes, (b, at, i) =>
      b.writeUIntLE(indexes[i]!, at, encoding.indexBytes)
    )
  ]
}

/**
 * The rows' samples as blocks of at most `blockRows` rows (one block when not given): a
 * row per sample, times as `Float64` ms, or as `UInt32` offsets with `offsets`.
 */
export const nativeSamples = (
  rows: ReadonlyArray<SamplesRow>,
  offsets = false,
  blockRows = Infinity,
  ids: IdColumn = { type: "UInt64" }
) => {
  const rowIds = rows.flatMap((r) => r.times.map(() => r.id))
  const times = rows.flatMap((r) => r.times)
  const values = rows.flatMap((r) => r.values)
  const blocks: Array<Buffer> = []
  for (let from = 0; from === 0 || from < rowIds.length; from += blockRows) {
    const to = Math.min(rowIds.length, from + blockRows)
    const count = to - from
    blocks.push(
      Buffer.from([...leb128(3), ...leb128(count)]),
      text("series"),
      ...idColumn(rowIds.slice(from, to), ids),
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
