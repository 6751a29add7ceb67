/**
 * zstd frames written by hand (RFC 8878): a frame header declaring any window, then raw
 * or RLE blocks. Node 20 has no zstd compressor, and a hostile frame is one no compressor
 * would write.
 */

const blockHeader = (type: 0 | 1, size: number, last: boolean) => {
  const value = (size << 3) | (type << 1) | (last ? 1 : 0)
  return [value & 0xff, (value >> 8) & 0xff, (value >> 16) & 0xff]
}

/** A frame header with a window of 2^`windowLog` bytes and no content size. */
export const frameHeader = (windowLog: number) => [
  0x28,
  0xb5,
  0x2f,
  0xfd,
  0x00,
  (windowLog - 10) << 3
]

/** `count` RLE blocks each repeating one byte `size` times (4 bytes each when sent). */
export const rleFrame = (windowLog: number, count: number, size: number, byte = 0x61) =>
  Uint8Array.from([
    ...frameHeader(windowLog),
    ...Array.from({ length: count }, (_, i) => [
      ...blockHeader(1, size, i === count - 1),
      byte
    ]).flat()
  ])

/** Raw blocks holding `content`, cut every `blockSize` bytes. */
export const rawFrame = (windowLog: number, content: Uint8Array, blockSize = 128 * 1024) => {
  const parts: Array<Uint8Array> = [Uint8Array.from(frameHeader(windowLog))]
  for (let at = 0; at < content.length; at += blockSize) {
    const block = content.subarray(at, at + blockSize)
    parts.push(Uint8Array.from(blockHeader(0, block.length, at + blockSize >= content.length)))
    parts.push(block)
  }
  return Buffer.concat(parts)
}
