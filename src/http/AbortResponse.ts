/**
 * Ends a response that is already streaming without completing it. Once its headers are
 * out, a response cannot turn into an error; the one thing HTTP/1.1 lets it say is "this
 * body is not whole", by closing the connection before the terminating chunk. Data
 * already written is sent first; clients (curl, fetch, undici) then report the response
 * as cut off instead of taking it for complete.
 */
import { HttpServerRequest } from "@effect/platform"
import { NodeHttpServerRequest } from "@effect/platform-node"
import { Effect } from "effect"

/** The current request's abort, to run later (at the end of its body stream). */
export const abortResponse: Effect.Effect<
  Effect.Effect<void>,
  never,
  HttpServerRequest.HttpServerRequest
> = Effect.map(HttpServerRequest.HttpServerRequest, (request) =>
  Effect.sync(() => {
    NodeHttpServerRequest.toServerResponse(request).socket?.end()
  })
)
