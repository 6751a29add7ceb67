/**
 * How a long read is planned (Fetch.ts): tried whole up to `whole` samples, else counted
 * per series and read in batches of series of at most `slice` samples, a series larger
 * than a slice alone in slices of time. The engine is a double holding a samples table
 * in memory and answering the statements' three shapes (the cut try, the counts, a read
 * of some series) as the engine would: what the read returns is held against the table
 * itself, and what each statement was asked to read against the sizes.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import type { QueryRunner } from "../../domain/QueryRunner.js"
import { makeFetch } from "../../src/prometheus/promql/read/Fetch.js"
import { makeKnownLabels } from "../../src/prometheus/promql/read/KnownLabels.js"
import { timesBase } from "../../src/prometheus/promql/read/SeriesSql.js"
import { nativeSamples } from "../support/nativeSamples.js"
import { database, scope } from "../support/queryRunner.js"

const HOUR = 3_600_000
const FROM = Date.UTC(2026, 0, 1)
const TO = FROM + 6 * HOUR

/** Series id → its sample times (ms), 1-minute apart from a per-series start; values t/1000. */
const table = new Map<bigint, Array<number>>([
  [3n, times(0, 40)],
  [7n, times(13, 25)],
  [11n, times(2, 130)], // more than a slice: read alone, in slices of time
  [12n, times(5, 30)],
  [40n, times(1, 10)],
  [18446744073709551615n, times(7, 45)]
])

function times(startMinute: number, count: number) {
  return Array.from({ length: count }, (_, i) => FROM + (startMinute + 2 * i) * 60_000 + 1)
}

const sizes = { whole: 100, slice: 60 }

/** `id UInt64, Array(UInt32) offsets from base, Array(Float64)`, as the engine answers it. */
const samplesBody = (rows: ReadonlyArray<readonly [bigint, ReadonlyArray<number>]>, base: number) =>
  nativeSamples(
    rows.map(([id, ts]) => ({
      id,
      times: ts.map((t) => t - base),
      values: ts.map((t) => t / 1000)
    })),
    true
  )

interface Asked {
  readonly ids: ReadonlyArray<bigint> | undefined
  readonly from: number
  readonly to: number
  readonly samples: number
}

const engineDouble = (asked: Array<Asked>) => {
  const runCompiled: QueryRunner["Type"]["runCompiled"] = (_scope, _database, statement) =>
    Effect.sync(() => {
      const sql = statement.sql
      if (sql.includes("series_labels")) {
        const ids = /WHERE id IN \(([^)]*)\)/.exec(sql)![1]!.split(", ")
        const lines = ids.map((id) => JSON.stringify({ id, series_labels: { id } }))
        return Buffer.from(lines.join("\n") + "\n")
      }
      const [from, to] = [...sql.matchAll(/fromUnixTimestamp64Milli\(toInt64\((\d+)\)/g)].map(
        (match) => Number(match[1])
      )
      const listed = /WHERE id IN \(([\d, ]+)\)/.exec(sql)?.[1]
      const ids = listed?.split(", ").map(BigInt)
      const rows = [...table]
        .filter(([id]) => ids === undefined || ids.includes(id))
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .map(([id, ts]) => [id, ts.filter((t) => t > from! && t <= to!)] as const)
        .filter(([, ts]) => ts.length > 0)
      if (sql.includes("count()")) {
        const body = Buffer.alloc(16 * rows.length)
        rows.forEach(([id, ts], i) => {
          body.writeBigUInt64LE(id, 16 * i)
          body.writeBigUInt64LE(BigInt(ts.length), 16 * i + 8)
        })
        return body
      }
      const limit = /LIMIT (\d+)/.exec(sql)?.[1]
      let left = limit === undefined ? Infinity : Number(limit)
      const read = rows.map(([id, ts]) => {
        const kept = ts.slice(0, Math.max(0, left))
        left -= kept.length
        return [id, kept] as const
      })
      const nonEmpty = read.filter(([, ts]) => ts.length > 0)
      asked.push({
        ids,
        from: from!,
        to: to!,
        samples: nonEmpty.reduce((n, [, ts]) => n + ts.length, 0)
      })
      return samplesBody(nonEmpty, timesBase(from!, to!)!)
    })
  return { runCompiled } as QueryRunner["Type"]
}

describe("a long read's slices", () => {
  it.effect("reads every sample once, each statement within a slice, by series", () =>
    Effect.gen(function* () {
      const asked: Array<Asked> = []
      const fetch = makeFetch(engineDouble(asked), scope, database, makeKnownLabels(), sizes)
      const matchers = [{ name: "__name__", type: "=", value: "x" }] as const
      const series = yield* fetch.samples(matchers as never, FROM, TO)

      // Every sample of the table in (FROM, TO], each series once, in time order.
      const read = new Map(series.map((s) => [BigInt(s.labels.id!), [...s.times]]))
      expect([...read.keys()].sort()).toEqual([...table.keys()].sort())
      for (const [id, ts] of table) expect(read.get(id), String(id)).toEqual(ts)
      for (const s of series) expect([...s.values]).toEqual([...s.times].map((t) => t / 1000))

      // The try (all series, cut), then reads naming their series, each within a slice.
      const [tried, ...slices] = asked
      expect(tried!.ids).toBeUndefined()
      expect(tried!.samples).toBe(sizes.whole + 1)
      for (const slice of slices) expect(slice.samples).toBeLessThanOrEqual(sizes.slice)
      const alone = slices.filter((slice) => slice.ids?.length === 1 && slice.ids[0] === 11n)
      expect(alone.length).toBe(Math.ceil(130 / sizes.slice))
      // Batches hold neighbouring ids, and no series but 11 is read twice.
      const named = slices.flatMap((slice) => slice.ids ?? []).filter((id) => id !== 11n)
      expect(named).toEqual([3n, 7n, 12n, 40n, 18446744073709551615n])
    })
  )

  it.effect("a read within the whole size is one statement", () =>
    Effect.gen(function* () {
      const asked: Array<Asked> = []
      const fetch = makeFetch(engineDouble(asked), scope, database, makeKnownLabels(), {
        whole: 1_000,
        slice: 60
      })
      const series = yield* fetch.samples(
        [{ name: "__name__", type: "=", value: "x" }] as never,
        FROM,
        TO
      )
      expect(asked.length).toBe(1)
      expect(series.reduce((n, s) => n + s.times.length, 0)).toBe(
        [...table.values()].reduce((n, ts) => n + ts.length, 0)
      )
    })
  )
})
