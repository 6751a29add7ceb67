/**
 * The lease loop over a lock table shared by two nodes, on the TestClock: a job runs on
 * the node holding its lease only, and moves to the other once the holder's session ends
 * (as PostgreSQL frees a killed node's advisory locks).
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Fiber, Option, TestClock } from "effect"
import type { LeaseTiming, LockSession } from "../../src/store/Leases.js"
import * as Leases from "../../src/store/Leases.js"

const timing: LeaseTiming = { retry: "2 seconds", check: "1 second" }

interface FakeNode extends LockSession {
  alive: boolean
  runs: number
}

/** Nodes whose sessions share one table of locks; a lock of an ended session is free. */
const lockTable = () => {
  const holders = new Map<string, FakeNode>()
  const node = (): FakeNode => {
    const self: FakeNode = {
      alive: true,
      runs: 0,
      take: (name) =>
        Effect.sync(() => {
          const holder = holders.get(name)
          if (!self.alive || (holder !== undefined && holder.alive)) return Option.none()
          holders.set(name, self)
          return Option.some(Effect.sync(() => self.alive && holders.get(name) === self))
        })
    }
    return self
  }
  return { node }
}

/** Counts a run each second. */
const jobOf = (node: FakeNode) =>
  Effect.forever(
    Effect.zipRight(
      Effect.sleep("1 second"),
      Effect.sync(() => node.runs++)
    )
  )

describe("Leases", () => {
  it.effect("runs a job on the holder only, and on the other node once the holder is gone", () =>
    Effect.gen(function* () {
      const table = lockTable()
      const a = table.node()
      const b = table.node()
      const fa = yield* Effect.fork(Leases.whileHeld(a, "sweep", jobOf(a), timing))
      yield* TestClock.adjust("0 millis")
      const fb = yield* Effect.fork(Leases.whileHeld(b, "sweep", jobOf(b), timing))
      yield* TestClock.adjust("10 seconds")
      expect([a.runs, b.runs]).toEqual([10, 0])

      // A's session ends (the process was killed, or its connection dropped).
      a.alive = false
      yield* TestClock.adjust("3 seconds")
      const afterMove = { a: a.runs, b: b.runs }
      expect(afterMove.b).toBeGreaterThan(0)
      yield* TestClock.adjust("10 seconds")
      // A heard at its next check that it lost the lease: its job ran no more.
      expect(a.runs).toBe(afterMove.a)
      expect(a.runs).toBeLessThanOrEqual(11)
      expect(b.runs).toBe(afterMove.b + 10)
      yield* Fiber.interrupt(fa)
      yield* Fiber.interrupt(fb)
    })
  )

  it.effect("a node keeps trying while another holds the lease, and never runs the job", () =>
    Effect.gen(function* () {
      const table = lockTable()
      const a = table.node()
      const b = table.node()
      const fa = yield* Effect.fork(Leases.whileHeld(a, "sweep", jobOf(a), timing))
      yield* TestClock.adjust("0 millis")
      const fb = yield* Effect.fork(Leases.whileHeld(b, "sweep", jobOf(b), timing))
      yield* TestClock.adjust("2 minutes")
      expect([a.runs, b.runs]).toEqual([120, 0])
      // Another job's lease is free: it runs on B while A keeps the first.
      const other = table.node()
      const fc = yield* Effect.fork(Leases.whileHeld(b, "retention", jobOf(other), timing))
      yield* TestClock.adjust("5 seconds")
      expect(other.runs).toBe(5)
      yield* Fiber.interrupt(fa)
      yield* Fiber.interrupt(fb)
      yield* Fiber.interrupt(fc)
    })
  )

  it.scoped("the single node's leases run every job at once", () =>
    Effect.gen(function* () {
      const leases = yield* Effect.provide(Leases.Leases, Leases.always)
      let runs = 0
      yield* leases.run(
        "sweep",
        Effect.forever(
          Effect.zipRight(
            Effect.sleep("1 second"),
            Effect.sync(() => runs++)
          )
        )
      )
      yield* TestClock.adjust("5 seconds")
      expect(runs).toBe(5)
    })
  )
})
