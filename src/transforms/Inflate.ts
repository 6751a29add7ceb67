/**
 * Gzip payloads inside a body (a log subscription posted as is, a delivery-stream record)
 * are recognised by their magic bytes, not by a header, and inflated within a byte
 * budget so a small record cannot expand without bound.
 */
import { gunzipSync } from "node:zlib"
import { Either } from "effect"

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

const utf8 = new TextDecoder("utf-8", { fatal: true })

/** UTF-8 text, or `undefined` for bytes that are not (a leading BOM is dropped). */
export const utf8Text = (bytes: Uint8Array): string | undefined => {
  try {
    return utf8.decode(bytes)
  } catch {
    return undefined
  }
}
