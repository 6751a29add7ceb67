import { HttpServerResponse } from "@effect/platform"
import type { ApiError } from "../../domain/Errors.js"
import { errorBody, errorStatus } from "../../domain/Errors.js"

/** The response for an error raised outside an endpoint (middleware, raw handlers). */
export const errorResponse = (error: ApiError) =>
  HttpServerResponse.unsafeJson(errorBody(error), {
    status: errorStatus[error._tag],
    headers:
      error._tag === "TooManyRequests" ? { "retry-after": String(error.retryAfterSeconds) } : {}
  })
