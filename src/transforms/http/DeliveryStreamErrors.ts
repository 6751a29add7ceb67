/**
 * Errors of delivery-stream inserts in the shape a delivery stream reads:
 * `{requestId, timestamp, errorMessage}` with the error's status. The request id is the
 * `X-Amz-Firehose-Request-Id` header (so failures before the body is read, such as a
 * missing or wrong access key, answer the same way). The usual `error`, `message` and
 * `hint` stay beside them, so the body is also this API's error shape (decisions.md §3)
 * and the request log still records the error.
 *
 * An API-wide middleware, because some of these failures (authentication, database
 * selection) happen before the insert handler runs. It rewrites both typed failures and
 * error responses already made, so it works wherever it sits among the others.
 */
import { HttpApiBuilder, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { Cause, Effect, Option } from "effect"
import type { ApiError, ErrorBody } from "../../../domain/Errors.js"
import * as Errors from "../../../domain/Errors.js"

export const REQUEST_ID_HEADER = "x-amz-firehose-request-id"

const NAMES = new Set(["delivery-stream", "firehose"])

const isDeliveryStream = (request: HttpServerRequest.HttpServerRequest) => {
  if (request.method !== "POST") return false
  const at = request.url.indexOf("?")
  if (at < 0 || !request.url.startsWith("/v1/tables/")) return false
  const transform = new URLSearchParams(request.url.slice(at + 1)).get("transform")
  return transform !== null && NAMES.has(transform)
}

const ERRORS = [
  Errors.BadRequest,
  Errors.Unauthorized,
  Errors.Forbidden,
  Errors.NotFound,
  Errors.Conflict,
  Errors.PayloadTooLarge,
  Errors.UnsupportedMediaType,
  Errors.TooManyRequests,
  Errors.Internal,
  Errors.NotImplemented,
  Errors.Unavailable,
  Errors.InsertTokenReused,
  Errors.MalformedRecords
]

const isApiError = (error: unknown): error is ApiError =>
  ERRORS.some((constructor) => error instanceof constructor)

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

const decoder = new TextDecoder()

/** An error response's `{error, message, hint}`, if it has that body. */
const errorBodyOf = (response: HttpServerResponse.HttpServerResponse): ErrorBody | undefined => {
  if (response.status < 400 || response.body._tag !== "Uint8Array") return undefined
  try {
    const parsed: unknown = JSON.parse(decoder.decode(response.body.body))
    if (typeof parsed !== "object" || parsed === null || "requestId" in parsed) return undefined
    const { error, message, hint } = parsed as Record<string, unknown>
    return typeof error === "string" && typeof message === "string"
      ? { error, message, hint: typeof hint === "string" ? hint : "" }
      : undefined
  } catch {
    return undefined
  }
}

export const DeliveryStreamErrorsLive = HttpApiBuilder.middleware((app) =>
  Effect.gen(function* () {
    const request = yield* HttpServerRequest.HttpServerRequest
    if (!isDeliveryStream(request)) return yield* app
    return yield* app.pipe(
      // Error responses already made (by ErrorShape, which this wraps).
      Effect.map((response) => {
        const body = errorBodyOf(response)
        if (body === undefined) return response
        const retry = response.headers["retry-after"]
        const headers: Record<string, string> = retry === undefined ? {} : { "retry-after": retry }
        return shaped(request, response.status, body, headers)
      }),
      // Typed failures, which HttpApi would otherwise encode outside every middleware.
      Effect.catchAllCause((original) => {
        const cause: Cause.Cause<unknown> = original
        const failure = Cause.failureOption(cause)
        if (Option.isNone(failure) || !isApiError(failure.value)) return Effect.failCause(original)
        const error = failure.value
        const headers: Record<string, string> =
          error._tag === "TooManyRequests" ? { "retry-after": String(error.retryAfterSeconds) } : {}
        return Effect.succeed(
          shaped(request, Errors.errorStatus[error._tag], Errors.errorBody(error), headers)
        )
      })
    )
  })
)
