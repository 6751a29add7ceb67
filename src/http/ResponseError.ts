/**
 * The error a request was answered with, as the error was made, for the middleware
 * around it (the request log, delivery-stream shaping): they read it here instead of
 * parsing it back out of the response body. `ErrorShape` records every error it renders;
 * the outermost middleware provides one slot per request.
 */
import { Context, Effect, Option } from "effect"
import type { ErrorBody } from "../../domain/Errors.js"

export interface ResponseErrorSlot {
  current: ErrorBody | null
}

export class ResponseError extends Context.Tag("sluice/ResponseError")<
  ResponseError,
  ResponseErrorSlot
>() {
  static readonly empty = (): ResponseErrorSlot => ({ current: null })
}

export const reportError = (body: ErrorBody) =>
  Effect.map(
    Effect.serviceOption(ResponseError),
    Option.map((slot) => {
      slot.current = body
    })
  )
