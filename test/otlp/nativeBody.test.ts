/**
 * The OTLP/HTTP body reader on its own: gzip is inflated while it arrives and refused as
 * soon as the inflated bytes pass the limit, so an endless gzip bomb ends in a 413 after
 * a small prefix has been read, and nothing beyond the limit is ever held.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { Readable } from "node:stream"
import { gzipSync } from "node:zlib"
import { readOtlpBody } from "../../src/otlp/native/OtlpBody.js"

// One gzip member inflating to 10 MiB of zeros (~10 KB); members may be concatenated.
const member = gzipSync(Buffer.alloc(10 * 1024 * 1024))

/** An endless stream of `member`s, counting what the reader pulled. */
const endlessBomb = () => {
  const pulled = { bytes: 0 }
  const source = new Readable({
    read() {
      pulled.bytes += member.length
      this.push(member)
    }
  })
  return { source, pulled }
}

describe("OTLP body reader", () => {
  it.effect("an endless gzip bomb is refused after a prefix, for its ratio", () =>
    Effect.gen(function* () {
      const { source, pulled } = endlessBomb()
      const limit = 100 * 1024 * 1024
      const error = yield* Effect.flip(readOtlpBody(source, "gzip", limit))
      expect(error._tag).toBe("PayloadTooLarge")
      // Zeros inflate 1,000 times: refused once past 8 MiB and 256 times what was read.
      expect(error.message).toContain("more than 256 times its size")
      // 100 MiB would inflate from ~10 members; buffering between the streams adds a few.
      expect(pulled.bytes).toBeLessThan(40 * member.length)
      source.destroy()
    })
  )

  it.effect("an endless plain body is refused at the limit too", () =>
    Effect.gen(function* () {
      let pulled = 0
      const source = new Readable({
        read() {
          pulled += 65_536
          this.push(Buffer.alloc(65_536, 1))
        }
      })
      const error = yield* Effect.flip(readOtlpBody(source, undefined, 1024 * 1024))
      expect(error._tag).toBe("PayloadTooLarge")
      expect(pulled).toBeLessThan(2 * 1024 * 1024)
      source.destroy()
    })
  )

  it.effect("gzip under the limit, split anywhere, inflates whole", () =>
    Effect.gen(function* () {
      const text = JSON.stringify({ resourceSpans: [], note: "x".repeat(100_000) })
      const packed = gzipSync(text)
      const parts = [packed.subarray(0, 7), packed.subarray(7, 500), packed.subarray(500)]
      const bytes = yield* readOtlpBody(Readable.from(parts), "gzip")
      expect(new TextDecoder().decode(bytes)).toBe(text)
      const same = yield* readOtlpBody(Readable.from([Buffer.from(text)]), "identity")
      expect(new TextDecoder().decode(same)).toBe(text)
    })
  )

  it.effect("a corrupt gzip stream is a 400, an unknown encoding a 415", () =>
    Effect.gen(function* () {
      const corrupt = yield* Effect.flip(
        readOtlpBody(Readable.from([Buffer.from("not gzip at all")]), "gzip")
      )
      expect(corrupt._tag).toBe("BadRequest")
      expect(corrupt.message).toContain("gzip")
      const truncated = yield* Effect.flip(
        readOtlpBody(Readable.from([gzipSync("{}").subarray(0, 12)]), "gzip")
      )
      expect(truncated._tag).toBe("BadRequest")
      const brotli = yield* Effect.flip(readOtlpBody(Readable.from([Buffer.from("x")]), "br"))
      expect(brotli._tag).toBe("UnsupportedMediaType")
    })
  )
})
