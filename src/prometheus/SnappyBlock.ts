/**
 * Snappy's block format, the framing remote write uses, decoded into a buffer kept
 * between calls (format: google/snappy, format_description.txt). A body is decoded and
 * read synchronously and nothing points into it afterwards (labels and the insert body
 * are copies), so one buffer serves every request: a fresh one per body was external
 * memory that brought on a major collection every few dozen writes.
 */

/** Bytes that are not a snappy block. */
export class NotSnappy extends Error {}

/** Kept between calls up to this size; a larger body gets a buffer of its own. */
const KEPT_BYTES = 4 * 1024 * 1024
// Below this, bytes are copied one by one: cheaper than a subarray and a `set`.
const SHORT = 16
const WORD = 4

/** The uncompressed length a block announces, and where its elements start. */
export const announcedLength = (
  block: Uint8Array
): { readonly length: number; readonly start: number } | undefined => {
  let length = 0
  for (let index = 0, shift = 0; index < 5 && index < block.length; index++, shift += 7) {
    const byte = block[index]!
    length += (byte & 0x7f) * 2 ** shift
    if ((byte & 0x80) === 0) return { length, start: index + 1 }
  }
  return undefined
}

const decodeInto = (block: Uint8Array, at: number, out: Uint8Array, length: number) => {
  const words = new DataView(out.buffer, out.byteOffset, out.byteLength)
  let pos = 0
  while (at < block.length) {
    const tag = block[at++]!
    const kind = tag & 3
    if (kind === 0) {
      let size = tag >>> 2
      if (size >= 60) {
        const extra = size - 59
        if (at + extra > block.length) throw new NotSnappy("truncated literal length")
        size = 0
        for (let index = 0; index < extra; index++) size += block[at + index]! * 2 ** (8 * index)
        at += extra
      }
      size += 1
      if (at + size > block.length || pos + size > length) throw new NotSnappy("literal overrun")
      if (size < SHORT)
        for (let index = 0; index < size; index++) out[pos + index] = block[at + index]!
      else out.set(block.subarray(at, at + size), pos)
      at += size
      pos += size
      continue
    }
    let size: number
    let offset: number
    if (kind === 1) {
      if (at + 1 > block.length) throw new NotSnappy("truncated copy")
      size = ((tag >>> 2) & 7) + 4
      offset = ((tag >>> 5) << 8) | block[at]!
      at += 1
    } else if (kind === 2) {
      if (at + 2 > block.length) throw new NotSnappy("truncated copy")
      size = (tag >>> 2) + 1
      offset = block[at]! | (block[at + 1]! << 8)
      at += 2
    } else {
      if (at + 4 > block.length) throw new NotSnappy("truncated copy")
      size = (tag >>> 2) + 1
      offset =
        (block[at]! | (block[at + 1]! << 8) | (block[at + 2]! << 16)) + block[at + 3]! * 2 ** 24
      at += 4
    }
    if (offset === 0 || offset > pos || pos + size > length) throw new NotSnappy("copy overrun")
    if (size < SHORT && offset >= WORD) {
      // Most copies are 4 to 13 bytes far back: a word at a time, each read from bytes
      // already written (the offset is at least a word).
      let index = 0
      for (; index + WORD <= size; index += WORD)
        words.setUint32(pos + index, words.getUint32(pos + index - offset, true), true)
      for (; index < size; index++) out[pos + index] = out[pos + index - offset]!
    } else if (offset < size || size < SHORT)
      // An offset shorter than the copy repeats the bytes it is still writing: one at a time.
      for (let index = 0; index < size; index++) out[pos + index] = out[pos + index - offset]!
    else out.copyWithin(pos, pos - offset, pos - offset + size)
    pos += size
  }
  if (pos !== length) throw new NotSnappy("shorter than announced")
}

/**
 * A decoder whose result is valid until its next call. Throws `NotSnappy`. The caller
 * refuses an announced length past its limit first (`announcedLength`).
 */
export const makeSnappyDecoder = () => {
  let kept = new Uint8Array(64 * 1024)
  return (block: Uint8Array): Uint8Array => {
    const announced = announcedLength(block)
    if (announced === undefined) throw new NotSnappy("no length")
    const { length, start } = announced
    let out: Uint8Array
    if (length <= kept.length) out = kept
    else if (length <= KEPT_BYTES) out = kept = new Uint8Array(Math.min(KEPT_BYTES, length * 2))
    else out = new Uint8Array(length)
    decodeInto(block, start, out, length)
    return out.subarray(0, length)
  }
}
