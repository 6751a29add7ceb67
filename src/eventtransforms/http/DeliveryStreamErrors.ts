/**
 * Errors of delivery-stream inserts in the shape a delivery stream reads:
 * `{requestId, timestamp, errorMessage}` with the error's status. The request id is the
 * `X-Amz-Firehose-Request-Id` header (so failures before the body is read, such as a
 * missing or wrong access key, answer the same way). The usual `error`, `message` and
 * `hint` stay beside them, so the body is also this API's error shape
 * and the request log still records the error.
 *
 * An API-wide middleware, because some of these failures (authentication, database
 * selection) happen before the insert handler runs. It wraps `ErrorShape`, which answers
 * every error and records it (`ResponseError`), and reshapes that answer.
 */
import { HttpApiBuilder, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { Effect, Option } from "effect"
import type { ErrorBody } from "../../../domain/Errors.js"
import { ResponseError } from "../../http/ResponseError.js"

export const REQUEST_ID_HEADER = "x-amz-firehose-request-id"

const NAMES = new Set(["delivery-stream", "firehose"])

const isDeliveryStream = (request: HttpServerRequest.HttpServerRequest) => {
  if (request.method !== "POST") return false
  const at = request.url.indexOf("?")
  if (at < 0 || !request.url.startsWith("/v1/tables/")) return false
  const transform = new URLSearchParams(request.url.slice(at + 1)).get("transform")
  return transform !== null && NAMES.has(transform)
}

const shaped = (
  request: HttpServerRequest.HttpServerRequest,
  status: number,
  body: ErrorBody,
  headers: Record<string, string> = {}
) =>
  HttpServerResponse.unsafeJson(
    {
      requestId: request.headers[REQUEST_ID_HEADER] ?? "",
      timestamp: Date.now(),
      errorMessage: body.message,
      ...body
    },
    { status, headers }
  )

export const DeliveryStreamErrorsLive = HttpApiBuilder.middleware((app) =>
  Effect.gen(function* () {
    const request = yield* HttpServerRequest.HttpServerRequest
    if (!isDeliveryStream(request)) return yield* app
    // The error `ErrorShape` (inside this) answered with; a slot of its own when no
    // request log provides one.
    const existing = yield* Effect.serviceOption(ResponseError)
    const slot = Option.getOrElse(existing, ResponseError.empty)
    const response = yield* Option.isSome(existing)
      ? app
      : Effect.provideService(app, ResponseError, slot)
    const body = slot.current
    if (body === null || response.status < 400) return response
    const retry = response.headers["retry-after"]
    return shaped(
      request,
      response.status,
      body,
      retry === undefined ? {} : { "retry-after": retry }
    )
  })
)
