/**
 * The body of a transform insert, read whole (a transform needs all of it) under the
 * insert byte limit, before and after `content-encoding` (gzip, zstd) is undone.
 */
import type { HttpServerRequest } from "@effect/platform"
import { Effect } from "effect"
import { UnsupportedMediaType } from "../../domain/Errors.js"
import { wholeBody } from "../ingest/RequestBody.js"

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

export const readTransformBody = (request: HttpServerRequest.HttpServerRequest, limit: number) =>
  Effect.zipRight(checkType(request.headers["content-type"]), wholeBody(request, limit))
