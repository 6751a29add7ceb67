/**
 * The version of a database's series tables: this process's own writes change it at
 * once; a change made elsewhere shows in the tables' parts, read again at most once a
 * second (under a `TestClock`), and a failed reading lets nothing be reused.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, TestClock, TestContext } from "effect"
import { makeTablesVersions } from "../../src/prometheus/TablesVersions.js"

/** A parts list the test sets, counting how often it is read. */
const fakeParts = () => {
  const state = { parts: "all_1_1_0", reads: 0, fail: false }
  const read = Effect.suspend(() => {
    state.reads++
    return state.fail ? Effect.fail("engine gone" as const) : Effect.succeed(state.parts)
  })
  return { state, read }
}

/**
 * The test's own `TestClock`: in the shared test process another file's `layer(...)`
 * leaves the module's `it.effect` without test services (see test/vitest.config.ts).
 */
const onTestClock = <A, E>(effect: Effect.Effect<A, E>) =>
  Effect.provide(effect, TestContext.TestContext)

describe("TablesVersions", () => {
  it.live("reads the parts once a second at most, and keeps the version while they hold", () =>
    onTestClock(
      Effect.gen(function* () {
        const versions = makeTablesVersions()
        const { state, read } = fakeParts()
        const first = yield* versions.current("c/db", read)
        expect(state.reads).toBe(1)
        yield* TestClock.adjust("999 millis")
        expect(yield* versions.current("c/db", read)).toBe(first)
        expect(state.reads).toBe(1)
        yield* TestClock.adjust("1 millis")
        expect(yield* versions.current("c/db", read)).toBe(first)
        expect(state.reads).toBe(2)
      })
    )
  )

  it.live("a change of the parts made elsewhere is a new version once they are read again", () =>
    onTestClock(
      Effect.gen(function* () {
        const versions = makeTablesVersions()
        const { state, read } = fakeParts()
        const first = yield* versions.current("c/db", read)
        state.parts = "all_1_1_0,all_2_2_0"
        // Not read yet: the change is not seen within the second.
        expect(yield* versions.current("c/db", read)).toBe(first)
        yield* TestClock.adjust("1 second")
        const second = yield* versions.current("c/db", read)
        expect(second).not.toBe(first)
        yield* TestClock.adjust("1 second")
        expect(yield* versions.current("c/db", read)).toBe(second)
      })
    )
  )

  it.live("this process's own write is a new version at once", () =>
    onTestClock(
      Effect.gen(function* () {
        const versions = makeTablesVersions()
        const { state, read } = fakeParts()
        const first = yield* versions.current("c/db", read)
        versions.changed("c/db")
        const second = yield* versions.current("c/db", read)
        expect(second).not.toBe(first)
        expect(state.reads).toBe(1)
        // Another database keeps its own.
        const other = yield* versions.current("c/other", read)
        versions.changed("c/db")
        expect(yield* versions.current("c/other", read)).toBe(other)
      })
    )
  )

  it.live("a failed reading is a change, and the next reading waits a second as any other", () =>
    onTestClock(
      Effect.gen(function* () {
        const versions = makeTablesVersions()
        const { state, read } = fakeParts()
        const first = yield* versions.current("c/db", read)
        yield* TestClock.adjust("1 second")
        state.fail = true
        const failed = yield* versions.current("c/db", read)
        expect(failed).not.toBe(first)
        expect(yield* versions.current("c/db", read)).toBe(failed)
        expect(state.reads).toBe(2)
        yield* TestClock.adjust("1 second")
        const again = yield* versions.current("c/db", read)
        expect([first, failed]).not.toContain(again)
        state.fail = false
        yield* TestClock.adjust("1 second")
        const back = yield* versions.current("c/db", read)
        expect([first, failed, again]).not.toContain(back)
        yield* TestClock.adjust("1 second")
        expect(yield* versions.current("c/db", read)).toBe(back)
      })
    )
  )

  it.live("a forgotten database made again never meets a version of the one before", () =>
    onTestClock(
      Effect.gen(function* () {
        const versions = makeTablesVersions()
        const { read } = fakeParts()
        const seen = new Set<string>()
        seen.add(yield* versions.current("c/db", read))
        versions.changed("c/db")
        seen.add(yield* versions.current("c/db", read))
        versions.forget((key) => key === "c/db")
        // The same parts as before (a new table's first part has the same name).
        expect(seen).not.toContain(yield* versions.current("c/db", read))
      })
    )
  )
})
