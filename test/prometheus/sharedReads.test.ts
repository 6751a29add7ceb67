/**
 * Concurrent reads of one key run once and share the outcome, a value or a failure; a
 * reader interrupted hands nothing on, and the one waiting reads for itself. Within one
 * query (`makeOnceEach`) a key runs once whether its reads overlap or follow each other. Reads here
 * wait for the test's go-ahead, so what runs concurrently is decided, not timed.
 */
import { describe, expect, it } from "@effect/vitest"
import { Deferred, Effect, Exit, Fiber } from "effect"
import { makeOnceEach, makeSharedReads } from "../../src/prometheus/promql/read/SharedReads.js"

/** A read that counts its runs, tells when one starts, and ends when `finish` is completed. */
const gatedRead = Effect.gen(function* () {
  const finish = yield* Deferred.make<string, string>()
  const started = yield* Deferred.make<void>()
  const state = { runs: 0 }
  const read = Effect.suspend(() => {
    state.runs++
    return Effect.zipRight(Deferred.succeed(started, undefined), Deferred.await(finish))
  })
  return { finish, started, state, read }
})

describe("SharedReads", () => {
  it.effect("a second read of the same key waits for the first and gets its value", () =>
    Effect.gen(function* () {
      const shared = makeSharedReads<string, string>()
      const { finish, started, state, read } = yield* gatedRead
      const first = yield* Effect.fork(shared("k", read))
      yield* Deferred.await(started)
      const second = yield* Effect.fork(shared("k", read))
      yield* Effect.yieldNow()
      yield* Deferred.succeed(finish, "samples")
      expect(yield* Fiber.join(first)).toBe("samples")
      expect(yield* Fiber.join(second)).toBe("samples")
      expect(state.runs).toBe(1)
      // Done: the next read of the key runs again (what is kept is ReadCache's business).
      expect(yield* shared("k", Effect.succeed("again"))).toBe("again")
    })
  )

  it.effect("another key reads on its own, and a failure is shared like a value", () =>
    Effect.gen(function* () {
      const shared = makeSharedReads<string, string>()
      const { finish, started, read } = yield* gatedRead
      const first = yield* Effect.fork(shared("k", read))
      yield* Deferred.await(started)
      expect(yield* shared("other", Effect.succeed("own"))).toBe("own")
      const second = yield* Effect.fork(shared("k", read))
      yield* Effect.yieldNow()
      yield* Deferred.fail(finish, "engine gone")
      expect(yield* Fiber.await(first)).toEqual(Exit.fail("engine gone"))
      expect(yield* Fiber.await(second)).toEqual(Exit.fail("engine gone"))
    })
  )

  it.effect("when the first reader is interrupted, the one waiting reads for itself", () =>
    Effect.gen(function* () {
      const shared = makeSharedReads<string, string>()
      const { started, state, read } = yield* gatedRead
      const first = yield* Effect.fork(shared("k", read))
      yield* Deferred.await(started)
      const second = yield* Effect.fork(shared("k", Effect.succeed("read again")))
      yield* Effect.yieldNow()
      yield* Fiber.interrupt(first)
      expect(yield* Fiber.join(second)).toBe("read again")
      expect(state.runs).toBe(1)
    })
  )
})

describe("OnceEach (one query's reads)", () => {
  it.effect("a key runs once for reads beside it and after it; another key runs on its own", () =>
    Effect.gen(function* () {
      const once = makeOnceEach<string, string>()
      const { finish, started, state, read } = yield* gatedRead
      const first = yield* Effect.fork(once("k", () => read))
      yield* Deferred.await(started)
      const beside = yield* Effect.fork(once("k", () => read))
      expect(yield* once("other", () => Effect.succeed("own"))).toBe("own")
      yield* Effect.yieldNow()
      yield* Deferred.succeed(finish, "samples")
      expect(yield* Fiber.join(first)).toBe("samples")
      expect(yield* Fiber.join(beside)).toBe("samples")
      expect(yield* once("k", () => Effect.succeed("not read"))).toBe("samples")
      expect(state.runs).toBe(1)
    })
  )

  it.effect("a failure is the key's outcome for the rest of the query", () =>
    Effect.gen(function* () {
      const once = makeOnceEach<string, string>()
      let runs = 0
      const failing = () => Effect.suspend(() => (runs++, Effect.fail("engine gone")))
      expect(yield* Effect.exit(once("k", failing))).toEqual(Exit.fail("engine gone"))
      expect(yield* Effect.exit(once("k", failing))).toEqual(Exit.fail("engine gone"))
      expect(runs).toBe(1)
    })
  )
})
