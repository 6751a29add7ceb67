/**
 * A zstd stream's frames and blocks, read ahead of the decoder (RFC 8878 §3.1): the
 * bytes come out as pieces (a frame header, a block header, content), each with the work
 * the decoder does before it can take the next one. That work is what a body may burn:
 * the decoder (fzstd) allocates each frame's window and shifts the whole window on every
 * block, so a small body of tiny blocks declaring a huge window cost minutes of CPU
 * while inflating to little. Windows past `MAX_WINDOW_BYTES` are refused, as
 * `zstd -d` refuses a frame that "requires too much memory".
 */

/** The largest window a frame may declare: what `zstd -19` uses. */
export const MAX_WINDOW_BYTES = 8 * 1024 * 1024
const MAX_BLOCK_BYTES = 128 * 1024
const FRAME_MAGIC = 0xfd2fb528
const SKIPPABLE_MAGIC = 0x184d2a50

export interface ZstdPiece {
  readonly bytes: Uint8Array
  /** Bytes the decoder moves or allocates when it takes this piece. */
  readonly work: number
}

export type ZstdRefusal =
  | { readonly _tag: "WindowTooLarge"; readonly window: number }
  | { readonly _tag: "Corrupt"; readonly reason: string }

type State =
  | { readonly at: "frame" }
  | { readonly at: "block"; readonly window: number; readonly checksum: boolean }
  | { readonly at: "content"; readonly left: number; readonly then: State }

const u32 = (bytes: Uint8Array, at: number) =>
  (bytes[at]! | (bytes[at + 1]! << 8) | (bytes[at + 2]! << 16) | (bytes[at + 3]! << 24)) >>> 0

const little = (bytes: Uint8Array, at: number, length: number) => {
  let value = 0
  for (let index = 0; index < length; index++) value += bytes[at + index]! * 2 ** (8 * index)
  return value
}

const FRAME: State = { at: "frame" }

/** A frame header's length once its first 5 bytes are known, and its window once all are. */
const frameHeader = (bytes: Uint8Array) => {
  const descriptor = bytes[4]!
  const singleSegment = (descriptor >> 5) & 1
  const sizeBytes = [singleSegment, 2, 4, 8][descriptor >> 6]!
  const dictionaryBytes = [0, 1, 2, 4][descriptor & 3]!
  const length = 5 + (singleSegment ? 0 : 1) + dictionaryBytes + sizeBytes
  const window = () => {
    if (singleSegment) {
      const size = little(bytes, length - sizeBytes, sizeBytes)
      return sizeBytes === 2 ? size + 256 : size
    }
    const exponent = bytes[5]! >> 3
    const base = 2 ** (10 + exponent)
    return base + (base / 8) * (bytes[5]! & 7)
  }
  return { length, window, checksum: (descriptor & 4) !== 0, reserved: (descriptor & 8) !== 0 }
}

/**
 * A splitter of one zstd body: give it the bytes as they arrive; it answers the pieces
 * they hold (a header cut between two chunks waits for the rest), or why it refuses.
 */
export const zstdSplitter = () => {
  let state: State = FRAME
  let held = new Uint8Array(0)

  // The next piece of `bytes`, how many bytes it took, or undefined when it needs more.
  const next = (
    bytes: Uint8Array
  ): { readonly piece: ZstdPiece; readonly used: number } | ZstdRefusal | undefined => {
    if (state.at === "content") {
      const used = Math.min(state.left, bytes.length)
      state = used === state.left ? state.then : { ...state, left: state.left - used }
      return { piece: { bytes: bytes.subarray(0, used), work: 0 }, used }
    }
    if (state.at === "block") {
      const window = state.window
      if (bytes.length < 3) return undefined
      const header = little(bytes, 0, 3)
      const type = (header >> 1) & 3
      const size = header >>> 3
      if (type === 3) return { _tag: "Corrupt", reason: "a block of the reserved type" }
      if (size > Math.min(MAX_BLOCK_BYTES, window)) {
        return { _tag: "Corrupt", reason: "a block larger than its frame allows" }
      }
      const after: State =
        (header & 1) === 0
          ? state
          : state.checksum
            ? { at: "content", left: 4, then: FRAME }
            : FRAME
      const content = type === 1 ? 1 : size
      state = content === 0 ? after : { at: "content", left: content, then: after }
      // Each block costs the decoder a shift of its frame's whole window.
      return { piece: { bytes: bytes.subarray(0, 3), work: window }, used: 3 }
    }
    if (bytes.length < 8) return undefined
    const magic = u32(bytes, 0)
    if ((magic & 0xfffffff0) === SKIPPABLE_MAGIC) {
      state = { at: "content", left: u32(bytes, 4), then: FRAME }
      return { piece: { bytes: bytes.subarray(0, 8), work: 0 }, used: 8 }
    }
    if (magic !== FRAME_MAGIC) return { _tag: "Corrupt", reason: "not a zstd frame" }
    const header = frameHeader(bytes)
    if (header.reserved) return { _tag: "Corrupt", reason: "a frame header's reserved bit is set" }
    if (bytes.length < header.length) return undefined
    const window = header.window()
    if (window > MAX_WINDOW_BYTES) return { _tag: "WindowTooLarge", window }
    state = { at: "block", window, checksum: header.checksum }
    return { piece: { bytes: bytes.subarray(0, header.length), work: window }, used: header.length }
  }

  return {
    push: (chunk: Uint8Array): Array<ZstdPiece> | ZstdRefusal => {
      let bytes = held.length === 0 ? chunk : concat(held, chunk)
      const pieces: Array<ZstdPiece> = []
      while (bytes.length > 0) {
        const found = next(bytes)
        if (found === undefined) break
        if ("_tag" in found) return found
        pieces.push(found.piece)
        bytes = bytes.subarray(found.used)
      }
      held = bytes.slice()
      return pieces
    },
    /** Why the body cannot end here, if it cannot. */
    end: (): ZstdRefusal | undefined =>
      held.length > 0 || state.at !== "frame"
        ? { _tag: "Corrupt", reason: "the body ends inside a frame" }
        : undefined
  }
}

const concat = (first: Uint8Array, second: Uint8Array) => {
  const joined = new Uint8Array(first.length + second.length)
  joined.set(first)
  joined.set(second, first.length)
  return joined
}
