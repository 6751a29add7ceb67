import { HttpServerResponse } from "@effect/platform"
import { Effect } from "effect"
import type { ApiError } from "../../domain/Errors.js"
import { errorBody, errorStatus } from "../../domain/Errors.js"
import { reportError } from "./ResponseError.js"

/** The response for an error, recorded for the middleware around the request. */
export const errorResponse = (error: ApiError) => {
  const body = errorBody(error)
  return Effect.as(
    reportError(body),
    HttpServerResponse.unsafeJson(body, {
      status: errorStatus[error._tag],
      headers:
        error._tag === "TooManyRequests" ? { "retry-after": String(error.retryAfterSeconds) } : {}
    })
  )
}
