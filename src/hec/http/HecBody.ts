/**
 * A collector request's body through the one reader (src/http/RequestBody.ts): plain or
 * gzip, any content type (splunk-logging sends form-encoded), 100 MiB once inflated.
 * Its refusals become the protocol's code 6 in the adapter.
 */
import { BadRequest, PayloadTooLarge, UnsupportedMediaType } from "../../../domain/Errors.js"
import type { BodyRules } from "../../body/ReadableBody.js"

const HEC_BODY_LIMIT = 100 * 1024 * 1024

export const hecBodyRules = (limit: number = HEC_BODY_LIMIT): BodyRules => ({
  limit,
  compressions: ["gzip"],
  tooLarge: () =>
    new PayloadTooLarge({ message: `The body is larger than ${limit} bytes once inflated.` }),
  unsupportedEncoding: (encoding) =>
    new UnsupportedMediaType({ message: `Content-encoding '${encoding}' is not read here.` }),
  unreadable: new BadRequest({ message: "The request body could not be read." })
})
