/**
 * `timechart` over the hand-made events of events.ts (eN at minute N of
 * 2026-01-01, hosts and fields as listed there). Every bucket and series value below is
 * counted by hand from that list; buckets are chronological and zero-filled across the
 * window, split series ordered by name with NULL and OTHER last.
 */
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { SplCompiler } from "../../domain/SplCompiler.js"
import type { SearchWindow } from "../../domain/SplCompiler.js"
import { pivotSeries } from "../../src/spl/compiler/Pivot.js"
import { SplCompilerLive } from "../../src/spl/compiler/SplCompilerLive.js"
import { at, openEvents, search, T0 } from "./events.js"

const chdb = await openEvents()

/** Minutes 0 to 15: buckets of 5 minutes at 00:00, 00:05, 00:10. */
const quarter: SearchWindow = { earliest: at(0), latest: at(15) }
const time = (minute: number) => `2026-01-01 00:${String(minute).padStart(2, "0")}:00.000`
const HOUR = 3_600_000
const DAY = 24 * HOUR

/** `[_time minute, series, value]` rows of a split timechart. */
const long = (spl: string, split: string, value: string, window: SearchWindow = quarter) =>
  Effect.map(search(chdb, spl, window), (rows) =>
    rows.map((row) => [row["_time"], row[split], row[value]])
  )

const refusal = (spl: string, window: SearchWindow = quarter) =>
  Effect.flip(Effect.flatMap(SplCompiler, (c) => c.compile(spl, window)))

layer(SplCompilerLive)("SPL timechart", (it) => {
  it.effect("span: one row per bucket, the first bin rounded down; count per bucket", () =>
    // 00:00 holds e1–e4, 00:05 e5–e9, 00:10 e10–e12.
    Effect.map(search(chdb, "| timechart span=5m count", quarter), (rows) =>
      expect(rows).toEqual([
        { _time: time(0), count: 4 },
        { _time: time(5), count: 5 },
        { _time: time(10), count: 3 }
      ])
    )
  )

  it.effect("cont: empty buckets across the window are filled, with 0 for count", () =>
    // db-1 is e4 (minute 4) and e5 (minute 5); the window runs to minute 30.
    Effect.map(
      search(chdb, "host=db-1 | timechart span=5m count", { earliest: at(0), latest: at(30) }),
      (rows) =>
        expect(rows.map((r) => [r["_time"], r["count"]])).toEqual([
          [time(0), 1],
          [time(5), 1],
          [time(10), 0],
          [time(15), 0],
          [time(20), 0],
          [time(25), 0]
        ])
    )
  )

  it.effect("cont=false: only buckets that hold events", () =>
    Effect.map(search(chdb, "host=db-1 | timechart span=5m cont=false count", quarter), (rows) =>
      expect(rows).toEqual([
        { _time: time(0), count: 1 },
        { _time: time(5), count: 1 }
      ])
    )
  )

  it.effect("the window's first bucket is rounded down to the span", () =>
    // From minute 2: e2, e3, e4 in the 00:00 bucket.
    Effect.map(
      search(chdb, "| timechart span=5m count", { earliest: at(2), latest: at(10) }),
      (rows) =>
        expect(rows).toEqual([
          { _time: time(0), count: 3 },
          { _time: time(5), count: 5 }
        ])
    )
  )

  it.effect("span=1d buckets start at midnight", () =>
    Effect.map(
      search(chdb, "| timechart span=1d count", {
        earliest: T0 - 12 * HOUR,
        latest: T0 + 12 * HOUR
      }),
      (rows) =>
        expect(rows).toEqual([
          { _time: "2025-12-31 00:00:00.000", count: 0 },
          { _time: "2026-01-01 00:00:00.000", count: 12 }
        ])
    )
  )

  it.effect("several aggregates without a split; sum/avg/max null in empty buckets", () =>
    // avg(bytes): 00:00 (1200, 800; "abc" ignored) 1000, 00:05 (99, 10) 54.5, 00:10 (15000, 100)
    // 7550; max(status): 503, 404, 504.
    Effect.map(
      search(chdb, "| timechart span=5m count, avg(bytes) as avg_bytes, max(status)", {
        earliest: at(0),
        latest: at(20)
      }),
      (rows) =>
        expect(rows).toEqual([
          { _time: time(0), count: 4, avg_bytes: 1000, "max(status)": 503 },
          { _time: time(5), count: 5, avg_bytes: 54.5, "max(status)": 404 },
          { _time: time(10), count: 3, avg_bytes: 7550, "max(status)": 504 },
          { _time: time(15), count: 0, avg_bytes: null, "max(status)": null }
        ])
    )
  )

  it.effect("split-by: a row per bucket and series, zero-filled, series by name", () =>
    Effect.map(long("| timechart span=5m count by host", "host", "count"), (rows) =>
      expect(rows).toEqual([
        [time(0), "db-1", 1],
        [time(0), "we'b", 0],
        [time(0), "web-1", 2],
        [time(0), "web-2", 1],
        [time(0), "web-3", 0],
        [time(5), "db-1", 1],
        [time(5), "we'b", 0],
        [time(5), "web-1", 1],
        [time(5), "web-2", 1],
        [time(5), "web-3", 2],
        [time(10), "db-1", 0],
        [time(10), "we'b", 1],
        [time(10), "web-1", 1],
        [time(10), "web-2", 1],
        [time(10), "web-3", 0]
      ])
    )
  )

  it.effect("split-by pivots to one column per series (Splunk's table)", () =>
    Effect.gen(function* () {
      const compiled = yield* (yield* SplCompiler).compile(
        "| timechart span=5m count by host",
        quarter
      )
      expect(compiled.series).toEqual({ split: "host", value: "count" })
      expect(compiled.resultKind).toBe("statistics")
      const rows = yield* search(chdb, "| timechart span=5m count by host", quarter)
      const pivoted = pivotSeries(rows, compiled.series!)
      expect(pivoted.columns).toEqual(["_time", "db-1", "we'b", "web-1", "web-2", "web-3"])
      expect(pivoted.rows[0]).toEqual({
        _time: time(0),
        "db-1": 1,
        "we'b": 0,
        "web-1": 2,
        "web-2": 1,
        "web-3": 0
      })
    })
  )

  it("a series named __proto__ is a column like any other", () => {
    const pivoted = pivotSeries(
      [
        { _time: "t0", host: "__proto__", count: 3 },
        { _time: "t0", host: "web-1", count: 1 },
        { _time: "t1", host: "web-1", count: 2 }
      ],
      { split: "host", value: "count" }
    )
    expect(pivoted.columns).toEqual(["_time", "__proto__", "web-1"])
    expect(JSON.stringify(pivoted.rows)).toBe(
      '[{"_time":"t0","__proto__":3,"web-1":1},{"_time":"t1","__proto__":null,"web-1":2}]'
    )
  })

  it.effect("limit: the top series by their sum over all buckets; the rest summed into OTHER", () =>
    // Totals: web-1 4, web-2 3, db-1 2, web-3 2, we'b 1. OTHER = db-1 + web-3 + we'b.
    Effect.map(long("| timechart span=5m limit=2 count by host", "host", "count"), (rows) =>
      expect(rows).toEqual([
        [time(0), "web-1", 2],
        [time(0), "web-2", 1],
        [time(0), "OTHER", 1],
        [time(5), "web-1", 1],
        [time(5), "web-2", 1],
        [time(5), "OTHER", 3],
        [time(10), "web-1", 1],
        [time(10), "web-2", 1],
        [time(10), "OTHER", 1]
      ])
    )
  )

  it.effect("useother=false drops the series beyond the limit; options after BY work", () =>
    Effect.map(
      long("| timechart span=5m count by host limit=2 useother=false", "host", "count"),
      (rows) =>
        expect(rows).toEqual([
          [time(0), "web-1", 2],
          [time(0), "web-2", 1],
          [time(5), "web-1", 1],
          [time(5), "web-2", 1],
          [time(10), "web-1", 1],
          [time(10), "web-2", 1]
        ])
    )
  )

  it.effect(
    "usenull: events without the split field form NULL; NULL takes no place in the limit",
    () =>
      // users (as text): alice e1 e9, bob e2 e7 (top 2 by count); NULL e3 e4 e10; OTHER: Alice e5,
      // carol e6, dave e8, erin e11, o'brien e12.
      Effect.map(long("| timechart span=5m limit=2 count by user", "user", "count"), (rows) =>
        expect(rows).toEqual([
          [time(0), "alice", 1],
          [time(0), "bob", 1],
          [time(0), "NULL", 2],
          [time(0), "OTHER", 0],
          [time(5), "alice", 1],
          [time(5), "bob", 1],
          [time(5), "NULL", 0],
          [time(5), "OTHER", 3],
          [time(10), "alice", 0],
          [time(10), "bob", 0],
          [time(10), "NULL", 1],
          [time(10), "OTHER", 2]
        ])
      )
  )

  it.effect("usenull=false drops them; nullstr and otherstr rename the two series", () =>
    Effect.gen(function* () {
      const without = yield* long(
        "| timechart span=5m limit=2 usenull=f count by user",
        "user",
        "count"
      )
      expect(without.map((r) => r[1])).toEqual(Array(3).fill(["alice", "bob", "OTHER"]).flat())
      const renamed = yield* long(
        '| timechart span=5m limit=2 nullstr="none" otherstr=rest count by user',
        "user",
        "count"
      )
      expect(renamed.slice(0, 4)).toEqual([
        [time(0), "alice", 1],
        [time(0), "bob", 1],
        [time(0), "none", 2],
        [time(0), "rest", 0]
      ])
    })
  )

  it.effect("limit=0 keeps every series; a sum ranks series and OTHER sums their values", () =>
    Effect.gen(function* () {
      const all = yield* long("| timechart span=5m limit=0 count by host", "host", "count")
      expect(new Set(all.map((r) => r[1]))).toEqual(
        new Set(["db-1", "we'b", "web-1", "web-2", "web-3"])
      )
      // sum(bytes): web-2 800 + 15000 = 15800 ranks first. OTHER: 00:00 web-1 1200 ("abc" is no
      // number), 00:05 db-1 99 + web-3 10 = 109, 00:10 web-1 100; web-2 has no bytes at 00:05.
      expect(
        yield* long("| timechart span=5m limit=1 sum(bytes) by host", "host", "sum(bytes)")
      ).toEqual([
        [time(0), "web-2", 800],
        [time(0), "OTHER", 1200],
        [time(5), "web-2", null],
        [time(5), "OTHER", 109],
        [time(10), "web-2", 15000],
        [time(10), "OTHER", 100]
      ])
    })
  )

  it.effect("without span, bins=100 picks Splunk's preset spans", () =>
    Effect.gen(function* () {
      // 15 minutes → 10s buckets: 90 of them, e1 in the one at 00:01:00.
      const fifteen = yield* search(chdb, "| timechart count", quarter)
      expect(fifteen.length).toBe(90)
      expect(fifteen[6]).toEqual({ _time: "2026-01-01 00:01:00.000", count: 1 })
      expect(fifteen.reduce((n, r) => n + Number(r["count"]), 0)).toBe(12)
      // 24 hours → 30m (48 buckets); 7 days → 1d (7); a year → 1mon (12).
      const day = yield* search(chdb, "| timechart count", { earliest: T0, latest: T0 + DAY })
      expect(day.length).toBe(48)
      expect(day[0]).toEqual({ _time: time(0), count: 12 })
      expect(day[1]).toEqual({ _time: "2026-01-01 00:30:00.000", count: 0 })
      const week = yield* search(chdb, "| timechart count", { earliest: T0, latest: T0 + 7 * DAY })
      expect(week.map((r) => r["count"])).toEqual([12, 0, 0, 0, 0, 0, 0])
      const year = yield* search(chdb, "| timechart count", {
        earliest: T0,
        latest: T0 + 365 * DAY
      })
      expect(year.length).toBe(12)
      expect(year[1]).toEqual({ _time: "2026-02-01 00:00:00.000", count: 0 })
      // bins=3 over 15 minutes → 5m.
      expect((yield* search(chdb, "| timechart bins=3 count", quarter)).length).toBe(3)
    })
  )

  it.effect("without a window the span is 1d, filled between the data's buckets", () =>
    Effect.map(search(chdb, "| timechart count by host limit=1"), (rows) =>
      expect(rows).toEqual([
        { _time: "2026-01-01 00:00:00.000", host: "web-1", count: 4 },
        { _time: "2026-01-01 00:00:00.000", host: "OTHER", count: 8 }
      ])
    )
  )

  it.effect("a timechart's rows go on down the pipeline", () =>
    Effect.map(
      search(
        chdb,
        "| timechart span=5m count by host | where count > 1 | table host, count",
        quarter
      ),
      (rows) =>
        expect(rows).toEqual([
          { host: "web-1", count: 2 },
          { host: "web-3", count: 2 }
        ])
    )
  )

  const refused: ReadonlyArray<readonly [spl: string, position: number, says: RegExp]> = [
    ["| stats count | timechart count", 16, /needs the events' _time/],
    ["| timechart count, avg(bytes) by host", 2, /one aggregate with a split-by/],
    ["| timechart values(user)", 12, /values\(\) is not in the subset/],
    ["| timechart span=5x count", 12, /span=5x is not a span/],
    ["| timechart span=1s count", 12, /more than 10000 buckets/],
    ["| timechart useother=maybe count by host", 12, /neither true nor false/],
    ["| timechart limit=-1 count by host", 12, /not a whole number/],
    ["| timechart bins=0 count", 12, /not a whole number/],
    ["| timechart avg count", 12, /avg needs a field/]
  ]
  for (const [spl, position, says] of refused)
    it.effect(`refused: ${spl}`, () =>
      Effect.map(refusal(spl, { earliest: 0, latest: 365 * DAY }), (error) => {
        expect([error.command, error.position]).toEqual(["timechart", position])
        expect(error.message).toMatch(says)
      })
    )
})
