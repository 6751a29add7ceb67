/**
 * The raw body reader on Node streams: it waits for each chunk, ends at the source's end,
 * fails (as the endpoint's own `unreadable`) when the source errs or closes early, and
 * leaves the source as it is when reading stops early.
 */
import { describe, expect, it } from "@effect/vitest"
import { Chunk, Effect, Stream } from "effect"
import { PassThrough } from "node:stream"
import { BadRequest } from "../../domain/Errors.js"
import { readableBytes } from "../../src/body/ReadableBody.js"

const unreadable = new BadRequest({ message: "The body could not be read.", hint: "Retry." })
const text = (chunks: Chunk.Chunk<Uint8Array>) =>
  Buffer.concat(Chunk.toReadonlyArray(chunks)).toString("utf8")
const turn = () => new Promise((resolve) => setImmediate(resolve))

/** Feeds `pieces` one event-loop turn apart, then `finish`es the source. */
const feed = (source: PassThrough, pieces: ReadonlyArray<string>, finish: () => void) =>
  Effect.promise(async () => {
    for (const piece of pieces) {
      await turn()
      source.write(piece)
    }
    await turn()
    finish()
  })

describe("readableBytes", () => {
  it.effect("reads a body that arrives piece by piece, to its end", () =>
    Effect.gen(function* () {
      const source = new PassThrough()
      const pieces = ['{"a":', "1}\n", '{"b":2}\n']
      const [read] = yield* Effect.all(
        [
          Stream.runCollect(readableBytes(source, unreadable)),
          feed(source, pieces, () => source.end())
        ],
        { concurrency: 2 }
      )
      expect(text(read)).toBe(pieces.join(""))
    })
  )

  it.effect("a source that errs, or closes before its end, is the endpoint's unreadable", () =>
    Effect.gen(function* () {
      const erring = new PassThrough()
      const [errored] = yield* Effect.all(
        [
          Effect.flip(Stream.runCollect(readableBytes(erring, unreadable))),
          feed(erring, ["part"], () => erring.destroy(new Error("ECONNRESET")))
        ],
        { concurrency: 2 }
      )
      expect(errored).toBe(unreadable)
      const cut = new PassThrough()
      const [closed] = yield* Effect.all(
        [
          Effect.flip(Stream.runCollect(readableBytes(cut, unreadable))),
          feed(cut, ["part"], () => cut.destroy())
        ],
        { concurrency: 2 }
      )
      expect(closed).toBe(unreadable)
    })
  )

  it.effect("reading stopped early leaves the rest in the source", () =>
    Effect.gen(function* () {
      const source = new PassThrough()
      source.write("first")
      const head = yield* Stream.runCollect(Stream.take(readableBytes(source, unreadable), 1))
      expect(text(head)).toBe("first")
      source.end("rest")
      expect(source.destroyed).toBe(false)
      const rest = yield* Stream.runCollect(readableBytes(source, unreadable))
      expect(text(rest)).toBe("rest")
    })
  )
})
