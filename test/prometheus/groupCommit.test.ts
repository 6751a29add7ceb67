/**
 * Accepted writes go into the engine in batches: what arrives while a batch is stored
 * goes in the next one, whoever waits hears when their writes are stored or why not, a
 * failed batch is stored again before newer writes, and the bound holds writers back;
 * a batch waits for its weight or its linger unless someone waits for it (TestClock).
 * The store here is a stand-in whose every batch waits for the test's go-ahead.
 */
import { describe, expect, it } from "@effect/vitest"
import type { Scope } from "effect"
import { Data, Deferred, Effect, Exit, Fiber, Option, Queue, TestClock, TestContext } from "effect"
import { makeGroupCommit } from "../../src/prometheus/GroupCommit.js"

class Refused extends Data.TaggedError("Refused")<{ readonly batch: ReadonlyArray<string> }> {}

/** A store that reports each batch it is given and stores it when told to. */
const controlledStore = Effect.gen(function* () {
  const started = yield* Queue.unbounded<{
    readonly batch: ReadonlyArray<string>
    readonly finish: Deferred.Deferred<void, Refused>
  }>()
  const stored: Array<ReadonlyArray<string>> = []
  const store = (batch: ReadonlyArray<string>) =>
    Effect.gen(function* () {
      const finish = yield* Deferred.make<void, Refused>()
      yield* Queue.offer(started, { batch, finish })
      yield* Deferred.await(finish)
      stored.push(batch)
    })
  const nextBatch = Queue.take(started)
  return { store, stored, nextBatch }
})

// Without a batch weight, every write is due at once.
const commitWith = (bound: number, batchWeight = 0) =>
  Effect.gen(function* () {
    const controlled = yield* controlledStore
    const commit = makeGroupCommit({
      store: controlled.store,
      weight: (write: string) => write.length,
      bound,
      batchWeight,
      linger: "1 second",
      scope: yield* Effect.scope
    })
    return { ...controlled, commit }
  })

/**
 * Under the test's own `TestClock` (as in tablesVersions.test.ts): in the shared test
 * process another file's `layer(...)` leaves the module's `it.effect` without test services.
 */
const onTestClock = <A, E>(effect: Effect.Effect<A, E, Scope.Scope>) =>
  effect.pipe(Effect.scoped, Effect.provide(TestContext.TestContext))

/** No batch has started: the stand-in store has not been handed one. */
const pending = <A>(nextBatch: Effect.Effect<A>) =>
  Effect.gen(function* () {
    const fiber = yield* Effect.fork(nextBatch)
    yield* Effect.yieldNow()
    const none = Option.isNone(yield* Fiber.poll(fiber))
    yield* Fiber.interrupt(fiber)
    return none
  })

describe("GroupCommit", () => {
  it.scoped("a write is stored at once; writes that arrive meanwhile go in one next batch", () =>
    Effect.gen(function* () {
      const { commit, nextBatch, stored } = yield* commitWith(1000)
      yield* commit.add("a")
      const first = yield* nextBatch
      expect(first.batch).toEqual(["a"])
      yield* commit.add("b")
      yield* commit.add("c")
      const settled = yield* Effect.fork(commit.settled)
      yield* Deferred.succeed(first.finish, undefined)
      const second = yield* nextBatch
      expect(second.batch).toEqual(["b", "c"])
      // Waiting for b and c: not done while their batch is being stored.
      expect(settled.unsafePoll()).toBeNull()
      yield* Deferred.succeed(second.finish, undefined)
      yield* Fiber.join(settled)
      expect(stored).toEqual([["a"], ["b", "c"]])
      // Nothing waiting: settled answers at once.
      yield* commit.settled
    })
  )

  it.scoped("a failed batch fails its waiters and is stored again, ahead of newer writes", () =>
    Effect.gen(function* () {
      const { commit, nextBatch, stored } = yield* commitWith(1000)
      yield* commit.add("a")
      const first = yield* nextBatch
      const waitingForA = yield* Effect.fork(commit.settled)
      yield* commit.add("b")
      const waitingForB = yield* Effect.fork(commit.settled)
      yield* Deferred.fail(first.finish, new Refused({ batch: first.batch }))
      const a = yield* Fiber.await(waitingForA)
      const b = yield* Fiber.await(waitingForB)
      expect(Exit.isFailure(a) && Exit.isFailure(b)).toBe(true)
      // No retry on its own: the next write starts one, with the kept batch first.
      yield* commit.add("c")
      const retry = yield* nextBatch
      expect(retry.batch).toEqual(["a", "b", "c"])
      yield* Deferred.succeed(retry.finish, undefined)
      yield* commit.settled
      expect(stored).toEqual([["a", "b", "c"]])
    })
  )

  it.scoped("settled after a failure tries again and answers with the outcome", () =>
    Effect.gen(function* () {
      const { commit, nextBatch } = yield* commitWith(1000)
      yield* commit.add("a")
      const first = yield* nextBatch
      yield* Deferred.fail(first.finish, new Refused({ batch: first.batch }))
      const again = yield* Effect.fork(commit.settled)
      const retry = yield* nextBatch
      expect(retry.batch).toEqual(["a"])
      yield* Deferred.fail(retry.finish, new Refused({ batch: retry.batch }))
      const exit = yield* Fiber.await(again)
      expect(exit).toStrictEqual(Exit.fail(new Refused({ batch: ["a"] })))
    })
  )

  it.scoped("room holds a writer back while the waiting writes reach the bound", () =>
    Effect.gen(function* () {
      const { commit, nextBatch } = yield* commitWith(4)
      yield* commit.add("aaa")
      const first = yield* nextBatch
      // The first batch is being stored; these wait, and reach the bound of 4.
      yield* commit.room
      yield* commit.add("bb")
      yield* commit.room
      yield* commit.add("cc")
      const held = yield* Effect.fork(commit.room)
      expect(held.unsafePoll()).toBeNull()
      yield* Deferred.succeed(first.finish, undefined)
      const second = yield* nextBatch
      expect(second.batch).toEqual(["bb", "cc"])
      expect(held.unsafePoll()).toBeNull()
      yield* Deferred.fail(second.finish, new Refused({ batch: second.batch }))
      // The writes it waited for were not stored: the writer hears it.
      const exit = yield* Fiber.await(held)
      expect(Exit.isFailure(exit)).toBe(true)
    })
  )

  it.scoped(
    "abandoning drops the waiting writes and fails their waiters; the running batch ends",
    () =>
      Effect.gen(function* () {
        const { commit, nextBatch, stored } = yield* commitWith(1000)
        yield* commit.add("a")
        const first = yield* nextBatch
        yield* commit.add("b")
        const waitingForB = yield* Effect.fork(commit.settled)
        // Let the waiter start waiting for b before b is dropped.
        yield* Effect.yieldNow()
        yield* commit.abandon(new Refused({ batch: ["gone"] }))
        expect(yield* Fiber.await(waitingForB)).toStrictEqual(
          Exit.fail(new Refused({ batch: ["gone"] }))
        )
        yield* Deferred.succeed(first.finish, undefined)
        yield* commit.settled
        expect(stored).toEqual([["a"]])
      })
  )

  it.live("below the batch weight, writes wait for the first one's linger", () =>
    Effect.gen(function* () {
      const { commit, nextBatch, stored } = yield* commitWith(1000, 10)
      yield* commit.add("ab")
      yield* TestClock.adjust("600 millis")
      yield* commit.add("cd")
      yield* TestClock.adjust("399 millis")
      expect(yield* pending(nextBatch)).toBe(true)
      // One second after the first write: both go, whatever they weigh.
      yield* TestClock.adjust("1 millis")
      const batch = yield* nextBatch
      expect(batch.batch).toEqual(["ab", "cd"])
      yield* Deferred.succeed(batch.finish, undefined)
      // The next write's linger starts with it, not with the first one's.
      yield* commit.add("ef")
      yield* TestClock.adjust("999 millis")
      expect(yield* pending(nextBatch)).toBe(true)
      yield* TestClock.adjust("1 millis")
      const later = yield* nextBatch
      expect(later.batch).toEqual(["ef"])
      yield* Deferred.succeed(later.finish, undefined)
      yield* commit.settled
      expect(stored).toEqual([["ab", "cd"], ["ef"]])
    }).pipe(onTestClock)
  )

  it.live(
    "writes reaching the batch weight go at once; a reader does not wait for the linger",
    () =>
      Effect.gen(function* () {
        const { commit, nextBatch } = yield* commitWith(1000, 10)
        yield* commit.add("abcde")
        yield* commit.add("fghij")
        const heavy = yield* nextBatch
        expect(heavy.batch).toEqual(["abcde", "fghij"])
        yield* Deferred.succeed(heavy.finish, undefined)
        yield* commit.add("k")
        expect(yield* pending(nextBatch)).toBe(true)
        const reader = yield* Effect.fork(commit.settled)
        const light = yield* nextBatch
        expect(light.batch).toEqual(["k"])
        yield* Deferred.succeed(light.finish, undefined)
        yield* Fiber.join(reader)
      }).pipe(onTestClock)
  )

  it.live("a linger that ends while a batch is stored sends its writes right after it", () =>
    Effect.gen(function* () {
      const { commit, nextBatch } = yield* commitWith(1000, 10)
      yield* commit.add("abcdefghij")
      const first = yield* nextBatch
      yield* commit.add("k")
      yield* TestClock.adjust("2 seconds")
      expect(yield* pending(nextBatch)).toBe(true)
      yield* Deferred.succeed(first.finish, undefined)
      const second = yield* nextBatch
      expect(second.batch).toEqual(["k"])
      yield* Deferred.succeed(second.finish, undefined)
    }).pipe(onTestClock)
  )
})
