/**
 * The one decompressor against bombs: a zstd frame declaring a window past 8 MiB, a body
 * of tiny blocks under a large window, and bodies (zstd or gzip) that inflate past 256
 * times their size are refused after a prefix; honest bodies inflate whole.
 */
import { describe, expect, it } from "@effect/vitest"
import { Chunk, Effect, Either, Stream } from "effect"
import { gzipSync } from "node:zlib"
import { decompress, inflateIfGzip } from "../../src/body/Decompress.js"
import { rawFrame, rleFrame } from "../support/zstdFrames.js"

const MIB = 1024 * 1024

/** `bytes` sent in chunks of 64 KiB, as a socket hands them over. */
const sent = (bytes: Uint8Array) =>
  Stream.fromIterable(
    Array.from({ length: Math.ceil(bytes.length / 65536) }, (_, i) =>
      bytes.subarray(i * 65536, (i + 1) * 65536)
    )
  )

const inflated = (bytes: Uint8Array, compression: "gzip" | "zstd") =>
  Effect.map(Stream.runCollect(decompress(sent(bytes), compression)), (chunks) =>
    Chunk.reduce(chunks, 0, (total, chunk) => total + chunk.length)
  )

describe("zstd", () => {
  it.effect("a 16 KB frame declaring a 512 MiB window is refused before it is decoded", () =>
    Effect.gen(function* () {
      const bomb = rleFrame(29, 4000, 128 * 1024)
      expect(bomb.length).toBeLessThan(16_100)
      const error = yield* Effect.flip(inflated(bomb, "zstd"))
      expect(error._tag).toBe("BadRequest")
      expect(error.message).toContain("512 MiB window; at most 8 MiB")
    })
  )

  it.effect("a frame may declare up to 8 MiB: full blocks under it inflate whole", () =>
    Effect.gen(function* () {
      const content = Buffer.alloc(20 * MIB)
      for (let i = 0; i < content.length; i += 4) content.writeUInt32LE((i * 2654435761) >>> 0, i)
      expect(yield* inflated(rawFrame(23, content), "zstd")).toBe(20 * MIB)
    })
  )

  it.effect("tiny blocks under a large window are refused: each would shift the whole window", () =>
    Effect.gen(function* () {
      // 16 KB of one-byte blocks: 4,000 shifts of 8 MiB (seconds of CPU) for 4 KB out.
      const error = yield* Effect.flip(inflated(rleFrame(23, 4000, 1), "zstd"))
      expect(error._tag).toBe("BadRequest")
      expect(error.message).toContain("blocks are too small")
      // The same blocks under a small window cost little, and are accepted.
      expect(yield* inflated(rleFrame(12, 4000, 1), "zstd")).toBe(4000)
    })
  )

  it.effect("a frame inflating past 256 times its size is a 413 after a prefix", () =>
    Effect.gen(function* () {
      // 32,768:1 blocks under an accepted window: 16 KB would inflate to 500 MiB.
      const error = yield* Effect.flip(inflated(rleFrame(23, 4000, 128 * 1024), "zstd"))
      expect(error._tag).toBe("PayloadTooLarge")
      expect(error.message).toContain("more than 256 times its size")
    })
  )

  it.effect("a body cut inside a frame, and bytes that are no frame, are 400s", () =>
    Effect.gen(function* () {
      const whole = rleFrame(20, 3, 10)
      const cut = yield* Effect.flip(inflated(whole.subarray(0, whole.length - 2), "zstd"))
      expect(cut.message).toContain("cannot be decompressed")
      const junk = yield* Effect.flip(inflated(Buffer.from("not zstd at all"), "zstd"))
      expect(junk.message).toContain("cannot be decompressed")
      expect(yield* inflated(whole, "zstd")).toBe(30)
    })
  )
})

describe("gzip", () => {
  it.effect("a gzip bomb is refused once it passes 256 times the bytes read", () =>
    Effect.gen(function* () {
      const bomb = gzipSync(Buffer.alloc(100 * MIB))
      expect(bomb.length).toBeLessThan(110_000)
      const error = yield* Effect.flip(inflated(bomb, "gzip"))
      expect(error._tag).toBe("PayloadTooLarge")
      expect(error.message).toContain("more than 256 times its size")
    })
  )

  it.effect("ordinary gzip inflates whole; a gzip payload inside a body obeys the ratio too", () =>
    Effect.gen(function* () {
      const text = Buffer.from(
        Array.from({ length: 50_000 }, (_, i) => JSON.stringify({ i, m: `line ${i}` })).join("\n")
      )
      expect(yield* inflated(gzipSync(text), "gzip")).toBe(text.length)
      const bomb = gzipSync(Buffer.alloc(20 * MIB))
      expect(Either.flip(inflateIfGzip(bomb, 100 * MIB))).toEqual(
        Either.right({ _tag: "TooDense" })
      )
      const whole = inflateIfGzip(gzipSync(text), 100 * MIB)
      expect(Either.getOrThrow(whole).length).toBe(text.length)
    })
  )
})
