/**
 * The body of a native OTLP/HTTP request: its encoding from the content type, and its
 * bytes through the one request-body reader, gzip inflated while they arrive. The
 * 100 MiB limit holds after decompression, chunk by chunk, so a gzip bomb stops at the
 * limit and neither the compressed nor the inflated bytes are held beyond it.
 */
import type { Readable } from "node:stream"
import { Effect } from "effect"
import { BadRequest, PayloadTooLarge, UnsupportedMediaType } from "../../../domain/Errors.js"
import { mediaType } from "../../body/ContentType.js"
import type { BodyRules } from "../../body/ReadableBody.js"
import { readWhole } from "../../body/ReadableBody.js"
import type { OtlpEncoding } from "../../../domain/OtlpExports.js"

export const OTLP_BODY_LIMIT = 100 * 1024 * 1024

/** `json` or `protobuf` from the content type; anything else is a 415. */
export const encodingOf = (contentType: string | undefined) => {
  const type = mediaType(contentType)
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

export const otlpBodyRules = (limit: number = OTLP_BODY_LIMIT): BodyRules => ({
  limit,
  compressions: ["gzip"],
  tooLarge: () => tooLarge(limit),
  unsupportedEncoding: (encoding) =>
    new UnsupportedMediaType({
      message: `Content-encoding '${encoding}' is not supported for OTLP.`,
      hint: "Send the body uncompressed or with content-encoding: gzip."
    }),
  unreadable: new BadRequest({
    message: "The request body could not be read.",
    hint: "Retry the export."
  })
})

/**
 * Reads `source` whole. It is neither destroyed nor drained here: the caller decides what
 * happens to the rest of a body refused half-way.
 */
export const readOtlpBody = (
  source: Readable,
  contentEncoding: string | undefined,
  limit: number = OTLP_BODY_LIMIT
): Effect.Effect<Uint8Array, BadRequest | PayloadTooLarge | UnsupportedMediaType> =>
  readWhole(source, contentEncoding, otlpBodyRules(limit))
