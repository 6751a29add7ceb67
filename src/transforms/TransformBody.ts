/**
 * The body of a transform insert, read whole (a transform needs all of it) under the
 * insert byte limit, before and after `content-encoding` (gzip, zstd) is undone.
 */
import type { HttpServerRequest } from "@effect/platform"
import { NodeHttpServerRequest, NodeStream } from "@effect/platform-node"
import { Chunk, Effect, identity, Stream } from "effect"
import { BadRequest, PayloadTooLarge, UnsupportedMediaType } from "../../domain/Errors.js"
import { decodeBody } from "../ingest/BodyDecoding.js"

/** The payloads are self-describing (gzip is found by its magic bytes), so these all do. */
const TYPES = [
  "",
  "application/json",
  "text/json",
  "text/plain",
  "application/octet-stream",
  "application/gzip",
  "application/x-gzip"
]

const checkType = (contentType: string | undefined) => {
  const type = (contentType ?? "").split(";")[0]!.trim().toLowerCase()
  return TYPES.includes(type)
    ? Effect.void
    : Effect.fail(
        new UnsupportedMediaType({
          message: `Transform inserts read application/json (or the raw gzip payload), not ${type}.`,
          hint: "Send the payload with content-type: application/json."
        })
      )
}

/** The raw body; what is left of it is drained if reading stops early (see InsertHandler). */
const rawBody = (request: HttpServerRequest.HttpServerRequest) =>
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
      () => new BadRequest({ message: "The request body could not be read.", hint: "Retry." })
    )
  )

export const readTransformBody = (request: HttpServerRequest.HttpServerRequest, limit: number) =>
  Effect.gen(function* () {
    const declared = Number(request.headers["content-length"] ?? "0")
    if (declared > limit) {
      return yield* new PayloadTooLarge({
        message: `The insert body (${declared} bytes) is larger than ${limit} bytes.`,
        hint: "Split the data into several inserts (the limit is SLUICE_MAX_INSERT_BYTES)."
      })
    }
    yield* checkType(request.headers["content-type"])
    const body = yield* decodeBody(rawBody(request), request.headers["content-encoding"], limit)
    const chunks = yield* Stream.runCollect(body)
    return Buffer.concat(Chunk.toReadonlyArray(chunks))
  })
