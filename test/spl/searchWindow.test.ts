/**
 * The search window and its timeline buckets, resolved against a `TestClock` set to
 * Tuesday 2026-03-31T15:45:30.250Z. Every expected instant and bucket is worked out on a
 * calendar from Splunk's time bounds and the timeline's span ladder.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Either, TestClock } from "effect"
import { timelineOf, zeroFilled } from "../../src/spl/search/Timeline.js"
import { resolveWindow } from "../../src/spl/search/Window.js"

const now = Date.UTC(2026, 2, 31, 15, 45, 30, 250)

const at = (earliest?: string, latest?: string) =>
  Effect.flatMap(TestClock.setTime(now), () => resolveWindow(earliest, latest))

describe("SPL search window", () => {
  it.effect("defaults: latest is now, earliest a day before latest", () =>
    Effect.gen(function* () {
      expect(yield* at()).toEqual({ earliest: now - 86_400_000, latest: now })
      expect(yield* at(undefined, "1767225600")).toEqual({
        earliest: Date.UTC(2025, 11, 31),
        latest: Date.UTC(2026, 0, 1)
      })
    })
  )

  it.effect("relative bounds with snapping, from the clock's now", () =>
    Effect.gen(function* () {
      expect(yield* at("-1d@d", "@d")).toEqual({
        earliest: Date.UTC(2026, 2, 30),
        latest: Date.UTC(2026, 2, 31)
      })
      expect(yield* at("-24h", "now")).toEqual({ earliest: now - 86_400_000, latest: now })
      expect(yield* at("@h")).toEqual({ earliest: Date.UTC(2026, 2, 31, 15), latest: now })
      expect(yield* at("-7d@w1", "@w1")).toEqual({
        earliest: Date.UTC(2026, 2, 23),
        latest: Date.UTC(2026, 2, 30)
      })
    })
  )

  it.effect("a bound that is no time, or an empty window, is a BadRequest naming it", () =>
    Effect.gen(function* () {
      const unit = yield* Effect.either(at("-3fortnights"))
      expect(Either.isLeft(unit) && unit.left.message).toMatch(/^earliest: /)
      const snap = yield* Effect.either(at(undefined, "@q7"))
      expect(Either.isLeft(snap) && snap.left.message).toMatch(/^latest: /)
      const empty = yield* Effect.either(at("now", "-1h"))
      expect(Either.isLeft(empty) && empty.left._tag).toBe("BadRequest")
      const same = yield* Effect.either(at("@d", "@d"))
      expect(Either.isLeft(same)).toBe(true)
    })
  )
})

describe("SPL timeline buckets", () => {
  const hour = 3_600_000
  const day = 24 * hour

  it("a day from midnight: 48 buckets of 30 minutes, zero-filled", () => {
    const timeline = timelineOf({ earliest: Date.UTC(2026, 0, 1), latest: Date.UTC(2026, 0, 2) })
    expect(timeline.span).toEqual({ ms: 30 * 60_000 })
    const buckets = zeroFilled(timeline, new Map([[3, 7]]))
    expect(buckets).toHaveLength(48)
    expect(buckets[0]).toEqual({ time: "2026-01-01T00:00:00.000Z", count: 0 })
    expect(buckets[3]).toEqual({ time: "2026-01-01T01:30:00.000Z", count: 7 })
    expect(buckets[47]).toEqual({ time: "2026-01-01T23:30:00.000Z", count: 0 })
  })

  it("the first bucket starts at the window's start rounded down to the span", () => {
    // 24 h from 15:45:30.250: 30-minute buckets from 15:30 through 15:30 the next day.
    const timeline = timelineOf({ earliest: now - day, latest: now })
    expect(timeline.starts[0]).toBe(Date.UTC(2026, 2, 30, 15, 30))
    expect(timeline.starts.at(-1)).toBe(Date.UTC(2026, 2, 31, 15, 30))
    expect(timeline.starts).toHaveLength(49)
  })

  it("the span grows with the window, and the buckets stay at most 100", () => {
    const cases: ReadonlyArray<readonly [number, Record<string, number>, number]> = [
      [15 * 60_000, { ms: 10_000 }, 90],
      [hour, { ms: 60_000 }, 60],
      [4 * hour, { ms: 5 * 60_000 }, 48],
      [7 * day, { ms: day }, 7],
      [30 * day, { ms: day }, 30]
    ]
    const start = Date.UTC(2026, 0, 1)
    for (const [length, span, buckets] of cases) {
      const timeline = timelineOf({ earliest: start, latest: start + length })
      expect(timeline.span, String(length)).toEqual(span)
      expect(timeline.starts, String(length)).toHaveLength(buckets)
    }
    // A year in calendar months; sixty years in whole years.
    const year = timelineOf({ earliest: Date.UTC(2025, 0, 1), latest: Date.UTC(2026, 0, 1) })
    expect(year.span).toEqual({ months: 1 })
    expect(year.starts.map((s) => new Date(s).toISOString().slice(0, 7))).toEqual(
      Array.from({ length: 12 }, (_, m) => `2025-${String(m + 1).padStart(2, "0")}`)
    )
    const decades = timelineOf({ earliest: 0, latest: Date.UTC(2030, 0, 1) })
    expect(decades.span).toEqual({ months: 12 })
    expect(decades.starts).toHaveLength(60)
    const ages = timelineOf({ earliest: 0, latest: 8.64e15 })
    expect(ages.starts.length).toBeLessThanOrEqual(100)
  })
})
