/** Response sizes (streamed bodies counted as sent) and error bodies, in isolation. */
import { HttpServerResponse } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { Chunk, Effect, Stream } from "effect"
import { countStreamedBytes, errorOf, responseSize } from "../../src/logs/http/ResponseFacts.js"
import type { ResponseBytes } from "../../src/logs/http/ResponseFacts.js"

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

  it("error bodies in the {error, message, hint} shape are parsed; others are not", () => {
    const shaped = HttpServerResponse.unsafeJson(
      { error: "not_found", message: "No such table.", hint: "List tables." },
      { status: 404 }
    )
    expect(errorOf(shaped)).toEqual({
      code: "not_found",
      message: "No such table.",
      hint: "List tables."
    })
    expect(errorOf(HttpServerResponse.unsafeJson({ error: "x" }, { status: 200 }))).toBeNull()
    expect(errorOf(HttpServerResponse.text("oops", { status: 500 }))).toBeNull()
    expect(
      errorOf(HttpServerResponse.unsafeJson({ text: "Invalid token", code: 4 }, { status: 403 }))
    ).toBeNull()
  })
})
