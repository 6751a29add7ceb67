/**
 * The row limits of the SPL subset over more events than they allow: `sort` returns 10,000
 * rows unless told otherwise (`sort 0` all of them), `head` 10, `list()` 100 values, and
 * `stats count` counts them all.
 */
import { afterAll, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { client } from "../../src/engine/ChdbEngine.js"
import { createTableSql } from "../../src/tables/Layout.js"
import { SplCompilerLive } from "../../src/spl/compiler/SplCompilerLive.js"
import { search, T0 } from "./events.js"

const chdb = client(":memory:")
afterAll(() => chdb.close())
await chdb.command({
  query: createTableSql("default", "spl_events", "2026-01-01T00:00:00Z", "events")
})
// 10,005 events one second apart, field n = 0 … 10004 (inserted by the engine from numbers()).
await chdb.command({
  query:
    "INSERT INTO default.spl_events (_time, _raw, host, source, sourcetype, index, __raw) " +
    `SELECT fromUnixTimestamp64Milli(toInt64(${T0} + number * 1000), 'UTC'), concat('event ', toString(number)), ` +
    "'h', 's', 'st', 'main', toJSONString(map('n', number)) FROM numbers(10005)"
})

const count = (spl: string) => Effect.map(search(chdb, spl), (rows) => rows.length)

layer(SplCompilerLive)("SPL limits", (it) => {
  it.effect("sort returns 10,000 rows by default", () =>
    Effect.map(count("| sort n"), (n) => expect(n).toBe(10_000))
  )
  it.effect("sort 0 and limit=0 return every row", () =>
    Effect.gen(function* () {
      expect(yield* count("| sort 0 n")).toBe(10_005)
      expect(yield* count("| sort n limit=0")).toBe(10_005)
    })
  )
  it.effect("sort -n keeps the 10,000 largest, numerically", () =>
    Effect.map(search(chdb, "| sort -n | table n"), (rows) => {
      expect(rows.length).toBe(10_000)
      expect(rows[0]).toEqual({ n: "10004" })
      expect(rows[9_999]).toEqual({ n: "5" })
    })
  )
  it.effect("stats list() keeps the first 100 values in the rows' order (newest first)", () =>
    Effect.map(search(chdb, "| stats list(n) as l | eval c=mvcount(l)"), (rows) => {
      const [row] = rows
      expect(row?.["c"]).toBe(100)
      expect(row?.["l"]).toEqual(Array.from({ length: 100 }, (_, i) => String(10_004 - i)))
    })
  )
  it.effect("head is 10, newest first; stats count counts all", () =>
    Effect.gen(function* () {
      const newest = yield* search(chdb, "| head | table n")
      expect(newest.map((r) => r["n"])).toEqual(
        Array.from({ length: 10 }, (_, i) => String(10_004 - i))
      )
      expect(yield* search(chdb, "| stats count")).toEqual([{ count: 10_005 }])
    })
  )
})
