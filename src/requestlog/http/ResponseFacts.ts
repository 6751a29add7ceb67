/** What the request log takes from a response: its size. */
import { HttpBody, HttpServerResponse } from "@effect/platform"
import { Effect, Stream } from "effect"

export interface ResponseBytes {
  /** Bytes of a streamed body actually sent; null when the body was not a stream. */
  streamed: number | null
}

/** A pre-response handler that counts a streamed body's bytes as they are sent. */
export const countStreamedBytes =
  (counter: ResponseBytes) =>
  (_request: unknown, response: HttpServerResponse.HttpServerResponse) => {
    const body = response.body
    if (body._tag !== "Stream") return Effect.succeed(response)
    counter.streamed = 0
    const counted = Stream.map(body.stream, (chunk) => {
      counter.streamed = (counter.streamed ?? 0) + chunk.length
      return chunk
    })
    return Effect.succeed(
      HttpServerResponse.setBody(
        response,
        HttpBody.stream(counted, body.contentType, body.contentLength)
      )
    )
  }

export const responseSize = (
  response: HttpServerResponse.HttpServerResponse,
  counter: ResponseBytes
) => {
  const body = response.body
  switch (body._tag) {
    case "Stream":
      return counter.streamed ?? 0
    case "Uint8Array":
      return body.body.length
    case "Raw":
      return body.contentLength ?? 0
    default:
      return 0
  }
}
