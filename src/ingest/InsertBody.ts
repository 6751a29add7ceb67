/** The limits of an insert's body (`SLUICE_MAX_INSERT_BYTES`) and how a refusal reads. */
import { BadRequest, PayloadTooLarge, UnsupportedMediaType } from "../../domain/Errors.js"
import type { BodyRules } from "../body/ReadableBody.js"

export const insertBodyRules = (limit: number): BodyRules => ({
  limit,
  compressions: ["gzip", "zstd"],
  tooLarge: (declared) =>
    new PayloadTooLarge({
      message:
        declared === undefined
          ? `The insert body is larger than ${limit} bytes.`
          : `The insert body (${declared} bytes) is larger than ${limit} bytes.`,
      hint: "Split the data into several inserts (the limit is SLUICE_MAX_INSERT_BYTES)."
    }),
  unsupportedEncoding: (encoding) =>
    new UnsupportedMediaType({
      message: `Content-encoding '${encoding}' is not supported.`,
      hint: "Send the body uncompressed, or with content-encoding gzip or zstd."
    }),
  unreadable: new BadRequest({
    message: "The request body could not be read.",
    hint: "Retry the insert."
  })
})
