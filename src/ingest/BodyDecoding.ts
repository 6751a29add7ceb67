/**
 * The raw request body as the bytes to insert: decompressed (`gzip`, `zstd`) while it
 * streams, capped at a byte limit before and after decompression, and hashed as it
 * arrives (for insert tokens).
 */
import { Decompress } from "fzstd"
import { createHash } from "node:crypto"
import { Readable } from "node:stream"
import { createGunzip } from "node:zlib"
import { Effect, Stream } from "effect"
import { BadRequest, PayloadTooLarge, UnsupportedMediaType } from "../../domain/Errors.js"

export type BodyError = BadRequest | PayloadTooLarge

const tooLarge = (limit: number) =>
  new PayloadTooLarge({
    message: `The insert body is larger than ${limit} bytes.`,
    hint: "Split the data into several inserts (the limit is SLUICE_MAX_INSERT_BYTES)."
  })

const corrupt = (encoding: string, error: unknown) =>
  new BadRequest({
    message: `The ${encoding} body cannot be decompressed: ${error instanceof Error ? error.message : String(error)}.`,
    hint: `Send a complete ${encoding} stream, or drop the content-encoding header.`
  })

const capped =
  (limit: number) =>
  <E>(body: Stream.Stream<Uint8Array, E>): Stream.Stream<Uint8Array, E | PayloadTooLarge> =>
    Stream.suspend(() => {
      let total = 0
      return Stream.mapEffect(body, (bytes) => {
        total += bytes.length
        return total > limit ? Effect.fail(tooLarge(limit)) : Effect.succeed(bytes)
      })
    })

const gunzip = <E>(body: Stream.Stream<Uint8Array, E>): Stream.Stream<Uint8Array, E | BadRequest> =>
  Stream.unwrapScoped(
    Effect.gen(function* () {
      let bodyError: { readonly error: E } | undefined
      const source = Readable.from(
        Stream.toAsyncIterable(
          Stream.tapError(body, (error) => Effect.sync(() => (bodyError = { error })))
        )
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

/** Decodes `body` by its `content-encoding`; `onRaw` sees each byte chunk as received. */
export const decodeBody = <E>(
  body: Stream.Stream<Uint8Array, E>,
  encoding: string | undefined,
  limit: number,
  /** Sees the raw bytes; leave it out when no one needs the body's hash. */
  hash?: ReturnType<typeof createHash>
): Effect.Effect<Stream.Stream<Uint8Array, E | BodyError>, UnsupportedMediaType> => {
  const raw =
    hash === undefined
      ? capped(limit)(body)
      : capped(limit)(body).pipe(Stream.tap((bytes) => Effect.sync(() => hash.update(bytes))))
  const name = (encoding ?? "identity").trim().toLowerCase()
  if (name === "identity" || name === "") return Effect.succeed(raw)
  if (name === "gzip" || name === "x-gzip") return Effect.succeed(capped(limit)(gunzip(raw)))
  if (name === "zstd") return Effect.succeed(capped(limit)(unzstd(raw)))
  return Effect.fail(
    new UnsupportedMediaType({
      message: `Content-encoding '${encoding}' is not supported.`,
      hint: "Send the body uncompressed, or with content-encoding gzip or zstd."
    })
  )
}

export const newBodyHash = () => createHash("sha256")
