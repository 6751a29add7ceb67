/**
 * An insert request's raw body, read by the handler itself (never buffered by the
 * framework), without `request.stream`'s habit of destroying the socket when reading
 * stops early: an insert refused mid-body still answers, and the rest is drained.
 */
import type { HttpServerRequest } from "@effect/platform"
import { NodeHttpServerRequest, NodeStream } from "@effect/platform-node"
import { Chunk, Effect, identity, Stream } from "effect"
import { BadRequest, PayloadTooLarge } from "../../domain/Errors.js"
import { decodeBody } from "./BodyDecoding.js"

export const requestBody = (request: HttpServerRequest.HttpServerRequest) =>
  Stream.unwrapScoped(
    Effect.gen(function* () {
      const incoming = NodeHttpServerRequest.toIncomingMessage(request)
      yield* Effect.addFinalizer(() =>
        Effect.sync(() => {
          if (!incoming.readableEnded) incoming.resume()
        })
      )
      return NodeStream.fromReadable<unknown, Uint8Array>(() => incoming, identity, {
        closeOnDone: false
      })
    })
  ).pipe(
    Stream.mapError(
      () =>
        new BadRequest({
          message: "The request body could not be read.",
          hint: "Retry the insert."
        })
    )
  )

/** A declared length over `limit` is refused before reading anything. */
export const checkDeclaredLength = (
  request: HttpServerRequest.HttpServerRequest,
  limit: number
) => {
  const declared = Number(request.headers["content-length"] ?? "0")
  return declared > limit
    ? Effect.fail(
        new PayloadTooLarge({
          message: `The insert body (${declared} bytes) is larger than ${limit} bytes.`,
          hint: "Split the data into several inserts (the limit is SLUICE_MAX_INSERT_BYTES)."
        })
      )
    : Effect.void
}

/**
 * The whole body, for payloads that must be seen whole (transforms): `content-encoding`
 * undone, and `limit` enforced before and after decompression.
 */
export const wholeBody = (request: HttpServerRequest.HttpServerRequest, limit: number) =>
  Effect.gen(function* () {
    yield* checkDeclaredLength(request, limit)
    const body = yield* decodeBody(requestBody(request), request.headers["content-encoding"], limit)
    const whole = Buffer.concat(Chunk.toReadonlyArray(yield* Stream.runCollect(body)))
    return new Uint8Array(whole.buffer, whole.byteOffset, whole.length)
  })
