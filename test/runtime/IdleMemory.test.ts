import { describe, expect, it } from "@effect/vitest"
import { Effect, Fiber } from "effect"
import * as v8 from "node:v8"
import { giveBackWhenIdle } from "../../src/runtime/IdleMemory.js"

const youngBytes = () =>
  v8.getHeapSpaceStatistics().find((space) => space.space_name === "new_space")!.physical_space_size

const MB = 1024 * 1024

/** Objects that live across a few young collections, as a burst of requests leaves them. */
const burstOfWork = () => {
  let kept: Array<{ readonly i: number; readonly s: string }> = []
  for (let i = 0; i < 3_000_000; i++) {
    kept.push({ i, s: `record ${i}` })
    if (kept.length > 300_000) kept = kept.slice(150_000)
  }
  return kept.length
}

describe("IdleMemory", () => {
  it.live("gives the young generation a burst of work grew back once the process is idle", () =>
    Effect.gen(function* () {
      burstOfWork()
      expect(youngBytes()).toBeGreaterThan(8 * MB)
      const fiber = yield* Effect.fork(
        // Every idle stretch tries again: with the service's gap between stretches, one
        // busy reading after the first try (the burst's own garbage collected, a loaded
        // machine) put the next tries past this test's bound.
        giveBackWhenIdle({
          every: "200 millis",
          triesAfter: ["1 second", "6 seconds", "12 seconds"],
          minimumGap: "0 millis"
        })
      )
      yield* Effect.promise(() =>
        expect.poll(youngBytes, { timeout: 30_000, interval: 100 }).toBeLessThanOrEqual(8 * MB)
      )
      yield* Fiber.interrupt(fiber)
    })
  )

  it.live("a collection's own time does not end the idle stretch it was tried in", () =>
    Effect.gen(function* () {
      // A heap whose first collection takes 400 ms and gives nothing back, as a first try
      // soon after a burst can on a slow machine; the second gives it back.
      let collections = 0
      const heap = {
        heldBytes: () => (collections >= 2 ? 1 * MB : 32 * MB),
        keptBytes: 8 * MB,
        giveBack: () => {
          collections++
          const until = performance.now() + 400
          while (performance.now() < until) {
            // busy, as a full collection is
          }
        }
      }
      const fiber = yield* Effect.fork(
        giveBackWhenIdle({
          every: "200 millis",
          triesAfter: ["500 millis", "1500 millis"],
          // Counted, the collection would make its interval's reading ~2/3 busy; stray work
          // of the test process stays far below half.
          idleUtilization: 0.5,
          // The service's gap: were the collection counted as the loop being busy, the
          // second try would wait for it.
          minimumGap: "30 seconds",
          holdings: [heap]
        })
      )
      yield* Effect.promise(() =>
        expect.poll(() => collections, { timeout: 15_000, interval: 100 }).toBe(2)
      )
      yield* Fiber.interrupt(fiber)
    })
  )

  it.live("gives back only the holdings above what they keep", () =>
    Effect.gen(function* () {
      const given: Array<string> = []
      const holdingOf = (name: string, heldBytes: number) => ({
        heldBytes: () => (given.includes(name) ? 0 : heldBytes),
        keptBytes: 16 * MB,
        giveBack: () => void given.push(name)
      })
      const fiber = yield* Effect.fork(
        giveBackWhenIdle({
          every: "100 millis",
          triesAfter: ["300 millis", "600 millis"],
          idleUtilization: 0.5,
          minimumGap: "0 millis",
          holdings: [holdingOf("pages", 150 * MB), holdingOf("small", 2 * MB)]
        })
      )
      yield* Effect.promise(() =>
        expect.poll(() => given, { timeout: 15_000, interval: 100 }).toEqual(["pages"])
      )
      yield* Fiber.interrupt(fiber)
      expect(given).toEqual(["pages"])
    })
  )

  it.live(
    "reads each holding once a try, and a try that finds nothing due ends the stretch's",
    () =>
      Effect.gen(function* () {
        let quietReads = 0
        let heldReads = 0
        let givenBack = 0
        // Never due: read at the first try only. Always due: read and given back at each.
        const quiet = {
          heldBytes: () => ++quietReads && 1 * MB,
          keptBytes: 16 * MB,
          giveBack: () => {}
        }
        const held = {
          heldBytes: () => ++heldReads && 64 * MB,
          keptBytes: 16 * MB,
          giveBack: () => void givenBack++
        }
        const options = {
          every: "50 millis",
          triesAfter: ["200 millis", "400 millis"],
          // Every reading idle, however busy the machine: one stretch, its two tries.
          idleUtilization: 1.01,
          minimumGap: "1 hour"
        } as const
        const quietFiber = yield* Effect.fork(giveBackWhenIdle({ ...options, holdings: [quiet] }))
        const heldFiber = yield* Effect.fork(giveBackWhenIdle({ ...options, holdings: [held] }))
        yield* Effect.promise(() =>
          expect.poll(() => givenBack, { timeout: 15_000, interval: 50 }).toBe(2)
        )
        // Many more checks than tries pass: the stretch's reads stay where they were.
        yield* Effect.sleep("1 second")
        yield* Fiber.interrupt(quietFiber)
        yield* Fiber.interrupt(heldFiber)
        expect({ quietReads, heldReads, givenBack }).toEqual({
          quietReads: 1,
          heldReads: 2,
          givenBack: 2
        })
      })
  )
})
