import { ApiFailure } from "../api.js"

export const failureOf = (error: unknown) =>
  error instanceof ApiFailure
    ? error
    : new ApiFailure(
        "bad_request",
        error instanceof Error ? error.message : String(error),
        "",
        null
      )
