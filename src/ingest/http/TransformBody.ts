/**
 * The body of a transform insert as a `TransformPayload`: read whole (a transform needs
 * all of it) under the insert limits, its content type checked, and the delivery-stream
 * headers (`X-Amz-Firehose-*`) taken along.
 */
import type { HttpServerRequest } from "@effect/platform"
import { Effect } from "effect"
import type { InsertTransform } from "../../../domain/api/TablesApi.js"
import { UnsupportedMediaType } from "../../../domain/Errors.js"
import { TransformPayload } from "../../../domain/TransformedIngest.js"
import { mediaType } from "../../body/ContentType.js"
import type { BodyRules } from "../../body/ReadableBody.js"
import { wholeBody } from "../../http/RequestBody.js"
import { REQUEST_ID_HEADER } from "../../eventtransforms/http/DeliveryStreamErrors.js"

const COMMON_ATTRIBUTES_HEADER = "x-amz-firehose-common-attributes"

/** The event payloads are self-describing (gzip is found by its magic bytes), so these all do. */
const EVENT_TYPES = [
  "",
  "application/json",
  "text/json",
  "text/plain",
  "application/octet-stream",
  "application/gzip",
  "application/x-gzip"
]

const eventType = (contentType: string | undefined) => {
  const type = mediaType(contentType)
  return EVENT_TYPES.includes(type)
    ? Effect.succeed("json" as const)
    : Effect.fail(
        new UnsupportedMediaType({
          message: `Transform inserts read application/json (or the raw gzip payload), not ${type}.`,
          hint: "Send the payload with content-type: application/json."
        })
      )
}

const otlpEncoding = (contentType: string | undefined) => {
  const type = mediaType(contentType)
  if (type === "application/json" || type === "text/json" || type === "")
    return Effect.succeed("json" as const)
  if (type === "application/x-protobuf" || type === "application/protobuf")
    return Effect.succeed("protobuf" as const)
  return Effect.fail(
    new UnsupportedMediaType({
      message: `OTLP transforms read application/json (OTLP/JSON) or application/x-protobuf, not ${type}.`,
      hint: "Send the export request as OTLP/JSON with content-type: application/json."
    })
  )
}

export const transformPayload = Effect.fnUntraced(function* (
  request: HttpServerRequest.HttpServerRequest,
  transform: InsertTransform,
  token: string | undefined,
  rules: BodyRules,
  columns: string | undefined
) {
  const contentType = request.headers["content-type"]
  const encoding = yield* transform.startsWith("otlp-")
    ? otlpEncoding(contentType)
    : eventType(contentType)
  const body = yield* wholeBody(request, rules)
  return new TransformPayload(
    {
      transform,
      body,
      encoding,
      token,
      requestId: request.headers[REQUEST_ID_HEADER],
      commonAttributes: request.headers[COMMON_ATTRIBUTES_HEADER],
      columns
    },
    true
  )
})
