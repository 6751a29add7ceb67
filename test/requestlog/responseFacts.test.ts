/** Response sizes (streamed bodies counted as sent) and recorded errors, in isolation. */
import { HttpServerResponse } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { Chunk, Effect, Stream } from "effect"
import { Conflict, NotFound } from "../../domain/Errors.js"
import { errorResponse } from "../../src/http/errorResponse.js"
import { ResponseError } from "../../src/http/ResponseError.js"
import { countStreamedBytes, responseSize } from "../../src/requestlog/http/ResponseFacts.js"
import type { ResponseBytes } from "../../src/requestlog/http/ResponseFacts.js"

const encoder = new TextEncoder()

describe("response facts", () => {
  it.effect("a streamed body is measured by the bytes that pass through it", () =>
    Effect.gen(function* () {
      const counter: ResponseBytes = { streamed: null }
      const parts = ["a,b\n", "1,2\n", "3,4\n"].map((s) => encoder.encode(s))
      const original = HttpServerResponse.stream(Stream.fromIterable(parts), {
        contentType: "text/csv"
      })
      const wrapped = yield* countStreamedBytes(counter)(undefined, original)
      expect(wrapped.headers).toEqual(original.headers)
      expect(responseSize(wrapped, counter)).toBe(0)
      if (wrapped.body._tag !== "Stream") throw new Error("expected a stream body")
      const sent = yield* Stream.runCollect(wrapped.body.stream)
      expect(Chunk.size(sent)).toBe(3)
      expect(responseSize(wrapped, counter)).toBe(12)
    })
  )

  it("fixed bodies are measured by their length; empty ones are zero", () => {
    const counter: ResponseBytes = { streamed: null }
    expect(responseSize(HttpServerResponse.text("héllo"), counter)).toBe(6)
    expect(responseSize(HttpServerResponse.empty({ status: 204 }), counter)).toBe(0)
  })

  it.effect(
    "an error response records its {error, message, hint} for the middleware around it",
    () =>
      Effect.gen(function* () {
        const slot = ResponseError.empty()
        const response = yield* errorResponse(
          new Conflict({ message: "Taken.", hint: "Pick another.", code: "duplicate_name" })
        ).pipe(Effect.provideService(ResponseError, slot))
        expect(response.status).toBe(409)
        expect(slot.current).toEqual({
          error: "duplicate_name",
          message: "Taken.",
          hint: "Pick another."
        })
        // Without a slot (no request log around it) the response is made all the same.
        const alone = yield* errorResponse(new NotFound({ message: "No such table." }))
        expect(alone.status).toBe(404)
      })
  )
})
