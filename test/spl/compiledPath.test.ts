/**
 * A search's statements are sluice's own: they go through `QueryRunner.runCompiledRows`
 * (no guard, no hints), never the user path (`run`, absent from this double: reaching
 * it would be a defect), and the rows the engine wrote are the answer's rows as they are.
 */
import { expect, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { ColumnMeta, QueryStatistics } from "../../domain/api/QueryApi.js"
import { AppRegistry } from "../../domain/AppRegistry.js"
import { QueryRunner } from "../../domain/QueryRunner.js"
import type { CompiledStatement } from "../../domain/QueryRunner.js"
import { SplSearch, SplSearchQuery } from "../../domain/SplSearch.js"
import { SplCompilerLive } from "../../src/spl/compiler/SplCompilerLive.js"
import { SplSearchLive } from "../../src/spl/search/SplSearchLive.js"
import { partial } from "../support/doubles.js"
import { database, scope } from "../support/queryRunner.js"

const statistics = new QueryStatistics({ elapsed: 0.25, rows_read: 10, bytes_read: 100 })
const event = { _time: "2026-01-01 00:00:00.000", _raw: "GET /a", host: "web-1", n: "42" }

it.effect("a search runs its statements as sluice's own and answers their rows", () => {
  const ran: Array<CompiledStatement> = []
  const runner = partial(QueryRunner, {
    runCompiledRows: (_scope, _database, statement) =>
      Effect.sync(() => {
        ran.push(statement)
        const result = statement.sql.startsWith("SELECT * FROM (")
        return {
          meta: result ? [new ColumnMeta({ name: "_raw", type: "String" })] : [],
          data: result ? [event] : [{ stage_0: 1, timeline: [] }],
          rows: 1,
          statistics
        }
      })
  })
  const layer = SplSearchLive.pipe(
    Layer.provide(
      Layer.mergeAll(SplCompilerLive, runner, partial(AppRegistry, { require: () => Effect.void }))
    )
  )
  return Effect.gen(function* () {
    const result = yield* (yield* SplSearch).search(
      scope,
      database,
      new SplSearchQuery({
        spl: "GET | head 5",
        includeFieldStatistics: false,
        explain: false,
        queryId: "search-7"
      })
    )
    expect(result.data).toEqual([event])
    expect(result.raw_events).toEqual([event])
    expect(result.statistics).toEqual({ elapsed: 0.5, rows_read: 20, bytes_read: 200 })
    // The result, then the stage counts with the timeline, under the search's id.
    expect(ran.map((s) => [s.queryId, s.format, s.tables])).toEqual([
      ["search-7", "JSON", ["spl_events"]],
      ["search-7", "JSON", ["spl_events"]]
    ])
  }).pipe(Effect.provide(layer))
})
