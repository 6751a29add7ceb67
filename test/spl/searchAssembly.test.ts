/**
 * What `SplSearch` assembles from its statements — rows, the result's kind, the stage
 * funnel and the timeline — called directly as an embedding program would, on the
 * in-memory composition (layers/Test.ts). Every expected figure is counted from the
 * events this test stores, not from the search.
 */
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { AppIds } from "../../domain/AppIds.js"
import { AppRegistry } from "../../domain/AppRegistry.js"
import { Authorization } from "../../domain/Authorization.js"
import { EventCollector } from "../../domain/EventCollector.js"
import { DatabaseName } from "../../domain/Ids.js"
import type { SplEvent } from "../../domain/SplEvent.js"
import { SplSearch, SplSearchQuery } from "../../domain/SplSearch.js"
import { InMemoryLive } from "../../layers/Test.js"
import { adminKeyCaller } from "../support/inMemory.js"

const database = DatabaseName.make("default")
const START = Date.UTC(2026, 10, 1, 12) // on a minute, so buckets are easy to name
const events: ReadonlyArray<SplEvent> = Array.from({ length: 12 }, (_, i) => ({
  time: START + i * 5 * 60_000,
  raw: `request ${i}`,
  host: `web-${(i % 3) + 1}`,
  source: "test",
  sourcetype: "json",
  index: "default",
  fields: { status: i % 4 === 0 ? 500 : 200, n: i }
}))
const window = { earliest: String(START / 1000 - 60), latest: String(START / 1000 + 3600) }

const search = (spl: string, id: string) =>
  Effect.gen(function* () {
    const admin = yield* adminKeyCaller
    const scope = yield* (yield* Authorization).clusterScope(admin, "query", {})
    return yield* (yield* SplSearch).search(
      scope,
      database,
      new SplSearchQuery({
        spl,
        ...window,
        includeFieldStatistics: false,
        explain: false,
        queryId: id
      })
    )
  })

layer(InMemoryLive(), { timeout: 120_000 })("an SPL search's result, assembled", (it) => {
  it.effect("stored events", () =>
    Effect.gen(function* () {
      const admin = yield* adminKeyCaller
      const scope = yield* (yield* Authorization).clusterScope(admin, "insert", {})
      yield* (yield* AppRegistry).install(scope.clusterId, AppIds.spl)
      const collector = yield* EventCollector
      const at = yield* collector.target(admin, { database: undefined })
      expect(yield* collector.store(at, events)).toBe(events.length)
    })
  )

  it.effect(
    "statistics: one row per host, the funnel's counts, the matching events' timeline",
    () =>
      Effect.gen(function* () {
        const failing = events.filter((e) => e.fields.status === 500)
        const result = yield* search("status>=500 | stats count by host", "assembly-stats")
        expect(result.result_kind).toBe("statistics")
        const byHost = new Map<string, number>()
        for (const e of failing) byHost.set(e.host, (byHost.get(e.host) ?? 0) + 1)
        expect(
          result.data.map((row) => [row.host, Number(row.count)]).sort(),
          JSON.stringify(result.data)
        ).toEqual([...byHost].sort())
        expect(result.stages.map((s) => [s.command, s.output_rows])).toEqual([
          ["search", failing.length],
          ["stats", byHost.size]
        ])
        expect(result.timeline.reduce((sum, b) => sum + b.count, 0)).toBe(failing.length)
      })
  )

  it.effect("events: newest first, cut by head, the funnel before and after the cut", () =>
    Effect.gen(function* () {
      const matching = events.filter((e) => e.host === "web-2")
      const result = yield* search("host=web-2 | head 2", "assembly-events")
      expect(result.result_kind).toBe("events")
      const newestTwo = [...matching].sort((a, b) => b.time - a.time).slice(0, 2)
      expect(result.data.map((row) => row._raw)).toEqual(newestTwo.map((e) => e.raw))
      expect(result.stages.map((s) => [s.command, s.output_rows])).toEqual([
        ["search", matching.length],
        ["head", 2]
      ])
      expect(result.timeline.reduce((sum, b) => sum + b.count, 0)).toBe(matching.length)
    })
  )
})
