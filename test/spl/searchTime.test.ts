/**
 * `earliest=`/`latest=` written in the search, and `now()`,
 * read against the search's start time on the TestClock: 2026-01-01T00:12:30Z, half a
 * minute after e12 (events eN at minute N, events.ts). Earliest is inclusive, latest
 * exclusive; snapping rounds down. Expectations are counted by hand.
 */
import { expect, layer } from "@effect/vitest"
import { Effect, TestClock } from "effect"
import { SplCompiler } from "../../domain/SplCompiler.js"
import type { SearchWindow } from "../../domain/SplCompiler.js"
import { SplCompilerLive } from "../../src/spl/compiler/SplCompilerLive.js"
import { at, ids, openEvents, search } from "./events.js"

const chdb = await openEvents()
const started = at(12) + 30_000

const found = (spl: string, window: SearchWindow = {}) =>
  Effect.zipRight(TestClock.setTime(started), ids(chdb, spl, window))

const cases: ReadonlyArray<readonly [rule: string, spl: string, expected: ReadonlyArray<string>]> =
  [
    [
      "earliest=-5m is 00:07:30: events from minute 8",
      "earliest=-5m",
      ["e12", "e11", "e10", "e9", "e8"]
    ],
    [
      "earliest=-5m@m snaps down to 00:07, inclusive",
      "earliest=-5m@m",
      ["e12", "e11", "e10", "e9", "e8", "e7"]
    ],
    [
      "earliest and latest: [00:02:30, 00:07:30)",
      "earliest=-10m latest=-5m",
      ["e7", "e6", "e5", "e4", "e3"]
    ],
    [
      "latest is exclusive: latest=-5m@m is before 00:07",
      "latest=-5m@m id=e*",
      ["e6", "e5", "e4", "e3", "e2", "e1"]
    ],
    [
      "epoch seconds: 1767225900 is minute 5",
      "earliest=1767225900 latest=1767226080",
      ["e7", "e6", "e5"]
    ],
    ["the modifiers combine with terms, in any place", "error earliest=-8m", ["e7", "e6"]],
    ["latest=now covers every event so far", "latest=now host=db-1", ["e5", "e4"]]
  ]

layer(SplCompilerLive)("SPL time modifiers in the search", (it) => {
  for (const [rule, spl, expected] of cases)
    it.effect(`${rule}: ${spl}`, () =>
      Effect.map(found(spl), (events) => expect(events).toEqual(expected))
    )

  it.effect("the search's own modifiers replace the request's window", () =>
    Effect.gen(function* () {
      // The request alone (from minute 10) finds no error; earliest=@h reaches back to 00:00.
      expect(yield* found("error", { earliest: at(10) })).toEqual([])
      expect(yield* found("error earliest=@h", { earliest: at(10) })).toEqual([
        "e7",
        "e6",
        "e4",
        "e3",
        "e1"
      ])
      // latest= alone keeps the request's earliest.
      expect(yield* found("latest=-2m", { earliest: at(9) })).toEqual(["e10", "e9"])
    })
  )

  it.effect("now() is the search's start time in epoch seconds", () =>
    Effect.gen(function* () {
      yield* TestClock.setTime(started)
      // 2026-01-01T00:12:30Z = 1767225600 + 750.
      expect(yield* search(chdb, "id=e1 | eval t=now(), ago=now() - _time | table t, ago")).toEqual(
        [{ t: 1767226350, ago: 690 }]
      )
    })
  )

  const refused: ReadonlyArray<readonly [spl: string, says: RegExp]> = [
    ["earliest=yesterday", /earliest=yesterday: 'yesterday' is not a time/],
    ["error earliest>-5m", /earliest takes =/],
    ["NOT earliest=-5m", /outside OR, NOT and IN/],
    ["a OR latest=now", /outside OR, NOT and IN/],
    ["earliest IN (-5m)", /outside OR, NOT and IN/],
    ["earliest=-999999999y", /further than a date can be/]
  ]
  for (const [spl, says] of refused)
    it.effect(`refused: ${spl}`, () =>
      Effect.map(
        Effect.flip(
          Effect.zipRight(
            TestClock.setTime(started),
            Effect.flatMap(SplCompiler, (c) => c.compile(spl, {}))
          )
        ),
        (error) => {
          expect([error.command, error.position]).toEqual(["search", 0])
          expect(error.message).toMatch(says)
        }
      )
    )
})
