/** A whole payload (plain or gzip) as UTF-8 text, for the formats that read one body. */
import { Effect, Either } from "effect"
import { BadRequest, PayloadTooLarge } from "../../domain/Errors.js"
import { inflateIfGzip, tooDense } from "../body/Decompress.js"

const utf8 = new TextDecoder("utf-8", { fatal: true })

/** UTF-8 text, or `undefined` for bytes that are not (a leading BOM is dropped). */
export const utf8Text = (bytes: Uint8Array): string | undefined => {
  try {
    return utf8.decode(bytes)
  } catch {
    return undefined
  }
}

export const payloadText = (payload: Uint8Array, maxBytes: number, hint: string) =>
  Effect.gen(function* () {
    const inflated = inflateIfGzip(payload, maxBytes)
    if (Either.isLeft(inflated)) {
      if (inflated.left._tag === "TooDense") return yield* tooDense("gzip")
      return yield* inflated.left._tag === "TooLarge"
        ? new PayloadTooLarge({
            message: `The payload is larger than ${maxBytes} bytes once inflated.`,
            hint: "Split the data into several inserts (the limit is SLUICE_MAX_INSERT_BYTES)."
          })
        : new BadRequest({
            message: `The gzip payload cannot be inflated: ${inflated.left.reason}.`,
            hint
          })
    }
    const text = utf8Text(inflated.right)
    if (text === undefined) {
      return yield* new BadRequest({ message: "The payload is not UTF-8 text.", hint })
    }
    return text
  })
