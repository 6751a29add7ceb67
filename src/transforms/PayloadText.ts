/** A whole payload (plain or gzip) as UTF-8 text, for the formats that read one body. */
import { Effect, Either } from "effect"
import { BadRequest, PayloadTooLarge } from "../../domain/Errors.js"
import { inflateIfGzip, utf8Text } from "./Inflate.js"

export const payloadText = (payload: Uint8Array, maxBytes: number, hint: string) =>
  Effect.gen(function* () {
    const inflated = inflateIfGzip(payload, maxBytes)
    if (Either.isLeft(inflated)) {
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
