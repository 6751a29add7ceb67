/**
 * The body of a native OTLP/HTTP request: its encoding from the content type, and its
 * bytes, inflated while they arrive when gzip-compressed. The 100 MiB limit applies
 * after decompression and is checked chunk by chunk, so a gzip bomb stops at the limit
 * and neither the compressed nor the inflated bytes are held beyond it.
 */
import type { Readable } from "node:stream"
import { createGunzip } from "node:zlib"
import { Effect } from "effect"
import { BadRequest, PayloadTooLarge, UnsupportedMediaType } from "../../../domain/Errors.js"

export const OTLP_BODY_LIMIT = 100 * 1024 * 1024

export type OtlpEncoding = "json" | "protobuf"

/** `json` or `protobuf` from the content type; anything else is a 415. */
export const encodingOf = (contentType: string | undefined) => {
  const type = (contentType ?? "").split(";")[0]!.trim().toLowerCase()
  if (type === "application/json") return Effect.succeed<OtlpEncoding>("json")
  if (type === "application/x-protobuf") return Effect.succeed<OtlpEncoding>("protobuf")
  return Effect.fail(
    new UnsupportedMediaType({
      message: `OTLP/HTTP reads application/json or application/x-protobuf, not ${type || "a body without content-type"}.`,
      hint: "Set content-type to application/x-protobuf (binary OTLP) or application/json (OTLP/JSON)."
    })
  )
}

export const tooLarge = (limit: number) =>
  new PayloadTooLarge({
    message: `The OTLP request body is larger than ${limit} bytes after decompression.`,
    hint: "Export smaller batches (lower the exporter's max export batch size)."
  })

type Outcome =
  | { readonly _tag: "Bytes"; readonly bytes: Uint8Array }
  | { readonly _tag: "TooLarge" }
  | { readonly _tag: "Corrupt"; readonly reason: string }

const collect = async (input: AsyncIterable<Buffer>, limit: number): Promise<Outcome> => {
  const parts: Array<Buffer> = []
  let total = 0
  // Leaving the loop early destroys `input` (the iterator's `return`), which stops inflation.
  for await (const chunk of input) {
    total += chunk.length
    if (total > limit) return { _tag: "TooLarge" }
    parts.push(chunk)
  }
  const whole = Buffer.concat(parts, total)
  return { _tag: "Bytes", bytes: new Uint8Array(whole.buffer, whole.byteOffset, whole.length) }
}

const inflate = async (source: Readable, limit: number): Promise<Outcome> => {
  const gunzip = createGunzip()
  const forward = (error: Error) => gunzip.destroy(error)
  source.on("error", forward)
  source.pipe(gunzip)
  try {
    return await collect(gunzip, limit)
  } catch (error) {
    return { _tag: "Corrupt", reason: error instanceof Error ? error.message : String(error) }
  } finally {
    source.unpipe(gunzip)
    source.off("error", forward)
    gunzip.destroy()
  }
}

/**
 * Reads `source` whole. It is neither destroyed nor drained here: the caller decides what
 * happens to the rest of a body refused half-way.
 */
export const readOtlpBody = (
  source: Readable,
  contentEncoding: string | undefined,
  limit: number = OTLP_BODY_LIMIT
): Effect.Effect<Uint8Array, BadRequest | PayloadTooLarge | UnsupportedMediaType> => {
  const name = (contentEncoding ?? "identity").trim().toLowerCase()
  const gzip = name === "gzip" || name === "x-gzip"
  if (!gzip && name !== "identity" && name !== "") {
    return Effect.fail(
      new UnsupportedMediaType({
        message: `Content-encoding '${contentEncoding}' is not supported for OTLP.`,
        hint: "Send the body uncompressed or with content-encoding: gzip."
      })
    )
  }
  return Effect.tryPromise({
    try: () =>
      gzip ? inflate(source, limit) : collect(source.iterator({ destroyOnReturn: false }), limit),
    catch: () =>
      new BadRequest({ message: "The request body could not be read.", hint: "Retry the export." })
  }).pipe(
    Effect.flatMap((outcome): Effect.Effect<Uint8Array, BadRequest | PayloadTooLarge> => {
      switch (outcome._tag) {
        case "Bytes":
          return Effect.succeed(outcome.bytes)
        case "TooLarge":
          return Effect.fail(tooLarge(limit))
        case "Corrupt":
          return Effect.fail(
            new BadRequest({
              message: `The gzip body cannot be decompressed: ${outcome.reason}.`,
              hint: "Send a complete gzip stream, or drop the content-encoding header."
            })
          )
      }
    })
  )
}
