/**
 * The one decompressor: `gzip` and `zstd` bodies inflated while they stream, and gzip
 * payloads inside a body (a log subscription posted as is, a delivery-stream record),
 * found by their magic bytes and inflated whole within a byte budget.
 */
import { Decompress } from "fzstd"
import { Readable } from "node:stream"
import { createGunzip, gunzipSync } from "node:zlib"
import { Effect, Either, Stream } from "effect"
import { BadRequest } from "../../domain/Errors.js"

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

const unzstd = <E>(body: Stream.Stream<Uint8Array, E>): Stream.Stream<Uint8Array, E | BadRequest> =>
  Stream.suspend(() => {
    const out: Array<Uint8Array> = []
    const decompress = new Decompress((chunk) => {
      out.push(chunk)
    })
    const step = (bytes: Uint8Array, final: boolean) =>
      Effect.try({
        try: () => {
          decompress.push(bytes, final)
          return out.splice(0)
        },
        catch: (error) => corrupt("zstd", error)
      })
    return Stream.mapConcatEffect(body, (bytes) => step(bytes, false)).pipe(
      Stream.concat(
        Stream.flatMap(Stream.fromEffect(step(new Uint8Array(0), true)), Stream.fromIterable)
      )
    )
  })

/** `body` inflated as it streams; a corrupt stream fails with a 400 naming the compression. */
export const decompress = <E>(
  body: Stream.Stream<Uint8Array, E>,
  compression: Compression
): Stream.Stream<Uint8Array, E | BadRequest> =>
  compression === "gzip" ? gunzip(body) : unzstd(body)

export const isGzip = (bytes: Uint8Array) =>
  bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b

export type InflateFailure =
  { readonly _tag: "TooLarge" } | { readonly _tag: "Corrupt"; readonly reason: string }

/** The bytes themselves, or inflated when gzip; at most `maxBytes` once inflated. */
export const inflateIfGzip = (
  bytes: Uint8Array,
  maxBytes: number
): Either.Either<Uint8Array, InflateFailure> => {
  if (!isGzip(bytes)) return Either.right(bytes)
  try {
    return Either.right(gunzipSync(bytes, { maxOutputLength: Math.max(1, maxBytes) }))
  } catch (error) {
    // zlib reports output past `maxOutputLength` as a RangeError (ERR_BUFFER_TOO_LARGE).
    if (error instanceof RangeError) return Either.left({ _tag: "TooLarge" })
    return Either.left({
      _tag: "Corrupt",
      reason: error instanceof Error ? error.message : String(error)
    })
  }
}
