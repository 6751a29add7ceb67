/**
 * The API-wide middleware that gives every failure the `{error, message, hint}` shape:
 * schema violations, malformed or oversized bodies, unknown routes and defects alike.
 * A body HttpApi buffers stops being read at the server's cap (`SLUICE_MAX_REQUEST_BYTES`,
 * the `MaxBodySize` of layers/Http.ts), whatever length was declared, and is answered
 * here with 413. Endpoints that stream their body read the raw stream under their own
 * limits, so no route needs an exception here.
 */
import {
  HttpApiBuilder,
  HttpApiError,
  HttpServerError,
  HttpServerRequest,
  Multipart
} from "@effect/platform"
import { Cause, Effect, Option } from "effect"
import type { ApiError } from "../../domain/Errors.js"
import { errorStatus } from "../../domain/Errors.js"
import {
  BadRequest,
  Internal,
  NotFound,
  PayloadTooLarge,
  UnsupportedMediaType
} from "../../domain/Errors.js"
import { SluiceConfig } from "../config/SluiceConfig.js"
import { lostEngine } from "../engine/EngineAccess.js"
import { mediaType } from "../body/ContentType.js"
import { errorResponse } from "./errorResponse.js"
import { describeProblem, fieldProblems } from "../../domain/SchemaIssues.js"
import { BODY_TOO_LARGE } from "./RequestBody.js"

const tooLarge = (max: number) =>
  new PayloadTooLarge({
    message: `The request body is larger than ${max} bytes.`,
    hint: "Send a smaller body (the limit is SLUICE_MAX_REQUEST_BYTES)."
  })

const isApiError = (error: unknown): error is ApiError =>
  typeof error === "object" &&
  error !== null &&
  "_tag" in error &&
  typeof error._tag === "string" &&
  Object.hasOwn(errorStatus, error._tag)

const isJson = (contentType: string | undefined) =>
  contentType === undefined || mediaType(contentType).includes("json")

const describeDecodeError = (error: HttpApiError.HttpApiDecodeError) =>
  fieldProblems(error.issues)
    .slice(0, 5)
    .map((field) => describeProblem(field, field.path || "request"))
    .join("; ")

/** A request error raised while reading the body (it arrives as a defect from HttpApi). */
const bodyError = (error: HttpServerError.RequestError, max: number) =>
  String(error.cause).includes(BODY_TOO_LARGE)
    ? tooLarge(max)
    : new BadRequest({
        message: `The request body could not be read: ${error.cause instanceof SyntaxError ? error.cause.message : "malformed body"}.`,
        hint: "Send a well-formed JSON document with content-type: application/json."
      })

/**
 * The response for failures that HttpApi itself raises, and for an engine lost or out of
 * reach mid-request; `None` for everything else.
 */
const shapeOf = (
  error: unknown,
  request: HttpServerRequest.HttpServerRequest,
  maxRequestBytes: number
): Option.Option<ApiError> => {
  if (error instanceof HttpApiError.HttpApiDecodeError) {
    return Option.some(
      isJson(request.headers["content-type"])
        ? new BadRequest({
            message: `The request is invalid: ${describeDecodeError(error)}.`,
            hint: "GET /v1/openapi.json describes every endpoint's parameters and body."
          })
        : new UnsupportedMediaType({
            message: `This endpoint reads application/json, not ${request.headers["content-type"]}.`,
            hint: "Send the body with content-type: application/json."
          })
    )
  }
  if (error instanceof HttpServerError.RouteNotFound) {
    return Option.some(
      new NotFound({
        message: `No endpoint ${request.method} ${request.url.split("?")[0]}.`,
        hint: "GET /v1/openapi.json lists every endpoint."
      })
    )
  }
  if (error instanceof HttpServerError.RequestError) {
    return Option.some(bodyError(error, maxRequestBytes))
  }
  if (error instanceof Multipart.MultipartError) {
    // Only endpoints that read their own body get this far with a multipart one.
    return Option.some(
      new BadRequest({
        message: `The multipart body could not be read (${error.reason}).`,
        hint: "Send a well-formed multipart/form-data body, or the content type the endpoint documents."
      })
    )
  }
  // An engine lost or out of reach mid-request: not a bug of ours.
  const lost = lostEngine(error)
  if (lost !== undefined) return Option.some(lost)
  return Option.none()
}

export const ErrorShapeLive = HttpApiBuilder.middleware(
  Effect.map(
    SluiceConfig,
    ({ maxRequestBytes }) =>
      (app) =>
        Effect.gen(function* () {
          const request = yield* HttpServerRequest.HttpServerRequest
          return yield* app.pipe(
            Effect.catchAllCause((original) => {
              // Typed `never` by HttpApi, but handlers' ApiErrors travel here too.
              const cause: Cause.Cause<unknown> = original
              const failure = Cause.failureOption(cause)
              const error = Option.isSome(failure)
                ? failure.value
                : Option.getOrUndefined(Cause.dieOption(cause))
              // A handler's own error, rendered here rather than by HttpApi, so that the
              // middleware around this one learns it (`ResponseError`) as it was made; or
              // one raised where HttpApi reads a payload, which turns it into a defect.
              if (isApiError(error)) return errorResponse(error)
              const shaped = shapeOf(error, request, maxRequestBytes)
              if (Option.isSome(shaped)) return errorResponse(shaped.value)
              if (Option.isSome(failure) || Cause.isInterruptedOnly(cause)) {
                return Effect.failCause(original)
              }
              return internal(cause)
            })
          )
        })
  )
)

/** Logs the defect with a trace id and answers with nothing but that id. */
const internal = (cause: Cause.Cause<unknown>) =>
  Effect.gen(function* () {
    const span = yield* Effect.option(Effect.currentSpan)
    const traceId = Option.match(span, {
      onNone: () => crypto.randomUUID().replaceAll("-", ""),
      onSome: (s) => s.traceId
    })
    yield* Effect.logError("unexpected failure", cause).pipe(
      Effect.annotateLogs("trace_id", traceId)
    )
    return yield* errorResponse(
      new Internal({
        message: `Internal error (trace id ${traceId}).`,
        hint: "Retry later; if it persists, report the trace id."
      })
    )
  })
