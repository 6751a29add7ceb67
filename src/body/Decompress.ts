/**
 * The one decompressor: `gzip` and `zstd` bodies inflated while they stream, and gzip
 * payloads inside a body (a log subscription posted as is, a delivery-stream record),
 * found by their magic bytes and inflated whole within a byte budget. Whatever the
 * encoding, nothing inflates past `MAX_RATIO` times its compressed size (beyond the first
 * 8 MiB): a bomb is refused after a prefix, before the caller's size limit.
 */
import { Decompress } from "fzstd"
import { Readable } from "node:stream"
import { createGunzip, gunzipSync } from "node:zlib"
import { Effect, Either, Stream } from "effect"
import { BadRequest, PayloadTooLarge } from "../../domain/Errors.js"
import type { ZstdPiece, ZstdRefusal } from "./ZstdFrames.js"
import { MAX_WINDOW_BYTES, zstdSplitter } from "./ZstdFrames.js"

export type Compression = "gzip" | "zstd"

/** A `content-encoding`'s compression, `identity` for none, `undefined` when unknown. */
export const compressionNamed = (
  encoding: string | undefined
): Compression | "identity" | undefined => {
  const name = (encoding ?? "identity").trim().toLowerCase()
  if (name === "identity" || name === "") return "identity"
  if (name === "gzip" || name === "x-gzip") return "gzip"
  if (name === "zstd") return "zstd"
  return undefined
}

/** Inflated bytes may be this many times the compressed ones, past `RATIO_FLOOR`. */
// Logs compress 5–50 times; zstd at its best on very repetitive records, about 200.
export const MAX_RATIO = 256
const RATIO_FLOOR = 8 * 1024 * 1024

const withinRatio = (inflated: number, compressed: number) =>
  inflated <= RATIO_FLOOR + MAX_RATIO * compressed

const mebibytes = (bytes: number) => `${Math.round((bytes / 1024 / 1024) * 10) / 10} MiB`

/** A body or payload refused for its ratio. */
export const tooDense = (encoding: string) =>
  new PayloadTooLarge({
    message: `The ${encoding} body inflates to more than ${MAX_RATIO} times its size; no more is accepted.`,
    hint: "Send the body less compressed, or uncompressed."
  })

// `inflate` of `body`, failing once its output passes the ratio to the bytes it read.
const withinRatioOf = <E, E2>(
  body: Stream.Stream<Uint8Array, E>,
  encoding: string,
  inflate: (body: Stream.Stream<Uint8Array, E>) => Stream.Stream<Uint8Array, E2>
): Stream.Stream<Uint8Array, E2 | PayloadTooLarge> =>
  Stream.suspend(() => {
    let compressed = 0
    let inflated = 0
    const counted = Stream.tap(body, (bytes) => Effect.sync(() => (compressed += bytes.length)))
    return Stream.mapEffect(inflate(counted), (bytes) => {
      inflated += bytes.length
      return withinRatio(inflated, compressed)
        ? Effect.succeed(bytes)
        : Effect.fail(tooDense(encoding))
    })
  })

const corrupt = (encoding: string, error: unknown) =>
  new BadRequest({
    message: `The ${encoding} body cannot be decompressed: ${error instanceof Error ? error.message : String(error)}.`,
    hint: `Send a complete ${encoding} stream, or drop the content-encoding header.`
  })

const gunzip = <E>(body: Stream.Stream<Uint8Array, E>): Stream.Stream<Uint8Array, E | BadRequest> =>
  Stream.unwrapScoped(
    Effect.gen(function* () {
      let bodyError: { readonly error: E } | undefined
      // One chunk of read-ahead: a body refused at its limit has pulled little beyond it.
      const source = Readable.from(
        Stream.toAsyncIterable(
          Stream.tapError(body, (error) => Effect.sync(() => (bodyError = { error })))
        ),
        { highWaterMark: 1 }
      )
      const inflate = source.pipe(createGunzip())
      source.on("error", (error) => inflate.destroy(error))
      yield* Effect.addFinalizer(() =>
        Effect.sync(() => {
          source.destroy()
          inflate.destroy()
        })
      )
      return Stream.fromAsyncIterable(inflate, (error): E | BadRequest =>
        bodyError === undefined ? corrupt("gzip", error) : bodyError.error
      ).pipe(
        Stream.map((chunk: Buffer) => new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.length))
      )
    })
  )

// fzstd shifts a frame's window on every block: that work is allowed this many times the
// bytes inflated, plus a start. `zstd -19`'s 8 MiB window over 128 KiB blocks does 64 per
// byte; a body of tiny blocks under a big window is refused before it costs seconds.
const WORK_PER_BYTE = 128
const FREE_WORK = 64 * 1024 * 1024
// Little enough window shifting that other work waits only briefly for the event loop.
const YIELD_AFTER_WORK = 64 * 1024 * 1024

const zstdRefused = (refusal: ZstdRefusal) =>
  refusal._tag === "Corrupt"
    ? corrupt("zstd", new Error(refusal.reason))
    : new BadRequest({
        message: `The zstd body declares a ${mebibytes(refusal.window)} window; at most ${mebibytes(MAX_WINDOW_BYTES)} is accepted (the frame requires too much memory).`,
        hint: "Compress with a window of at most 8 MiB: zstd up to level 19, without --long or --ultra."
      })

const tooFineBlocks = new BadRequest({
  message:
    "The zstd body's blocks are too small for the window its frames declare: decoding it would take far more work than its size warrants.",
  hint: "Compress the body in one pass (zstd -c), not flushed every few bytes, or with a smaller window."
})

const unzstd = <E>(
  body: Stream.Stream<Uint8Array, E>
): Stream.Stream<Uint8Array, E | BadRequest | PayloadTooLarge> =>
  Stream.suspend(() => {
    const out: Array<Uint8Array> = []
    let consumed = 0
    let inflated = 0
    let work = 0
    const decoder = new Decompress((chunk) => {
      inflated += chunk.length
      out.push(chunk)
    })
    const splitter = zstdSplitter()
    // A chunk's pieces in one loop, not an effect each: that cost more a piece than fzstd
    // takes for a small block. The loop gives the event loop a turn after each
    // `YIELD_AFTER_WORK` of window shifts.
    const inflatePieces = (
      pieces: ReadonlyArray<ZstdPiece>,
      from: number
    ): Effect.Effect<Array<Uint8Array>, BadRequest | PayloadTooLarge> => {
      let stepWork = 0
      for (let index = from; index < pieces.length; index++) {
        const piece = pieces[index]!
        work += piece.work
        stepWork += piece.work
        if (work > FREE_WORK + WORK_PER_BYTE * inflated) return Effect.fail(tooFineBlocks)
        consumed += piece.bytes.length
        try {
          decoder.push(piece.bytes, false)
        } catch (error) {
          return Effect.fail(corrupt("zstd", error))
        }
        if (!withinRatio(inflated, consumed)) return Effect.fail(tooDense("zstd"))
        if (stepWork >= YIELD_AFTER_WORK && index + 1 < pieces.length) {
          const done = out.splice(0)
          return Effect.zipRight(
            Effect.yieldNow(),
            Effect.map(inflatePieces(pieces, index + 1), (rest) => [...done, ...rest])
          )
        }
      }
      return Effect.succeed(out.splice(0))
    }
    const inflateChunk = (bytes: Uint8Array) =>
      Effect.suspend(() => {
        const pieces = splitter.push(bytes)
        return "_tag" in pieces ? Effect.fail(zstdRefused(pieces)) : inflatePieces(pieces, 0)
      })
    const end = Effect.suspend(() => {
      const refusal = splitter.end()
      if (refusal !== undefined) return Effect.fail(zstdRefused(refusal))
      return Effect.try({
        try: () => {
          decoder.push(new Uint8Array(0), true)
          return out.splice(0)
        },
        catch: (error) => corrupt("zstd", error)
      })
    })
    return Stream.mapConcatEffect(body, inflateChunk).pipe(
      Stream.concat(Stream.flattenIterables(Stream.fromEffect(end)))
    )
  })

/** `body` inflated as it streams; a corrupt stream fails with a 400 naming the compression. */
export const decompress = <E>(
  body: Stream.Stream<Uint8Array, E>,
  compression: Compression
): Stream.Stream<Uint8Array, E | BadRequest | PayloadTooLarge> =>
  compression === "gzip" ? withinRatioOf(body, "gzip", gunzip) : unzstd(body)

export const isGzip = (bytes: Uint8Array) =>
  bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b

export type InflateFailure =
  | { readonly _tag: "TooLarge" }
  | { readonly _tag: "TooDense" }
  | { readonly _tag: "Corrupt"; readonly reason: string }

/**
 * The bytes themselves, or inflated when gzip; at most `maxBytes` once inflated, and at
 * most `MAX_RATIO` times their size past the first MiB.
 */
export const inflateIfGzip = (
  bytes: Uint8Array,
  maxBytes: number
): Either.Either<Uint8Array, InflateFailure> => {
  if (!isGzip(bytes)) return Either.right(bytes)
  const dense = RATIO_FLOOR + MAX_RATIO * bytes.length
  try {
    return Either.right(
      gunzipSync(bytes, { maxOutputLength: Math.max(1, Math.min(maxBytes, dense)) })
    )
  } catch (error) {
    // zlib reports output past `maxOutputLength` as a RangeError (ERR_BUFFER_TOO_LARGE).
    if (error instanceof RangeError) {
      return Either.left(dense < maxBytes ? { _tag: "TooDense" } : { _tag: "TooLarge" })
    }
    return Either.left({
      _tag: "Corrupt",
      reason: error instanceof Error ? error.message : String(error)
    })
  }
}
