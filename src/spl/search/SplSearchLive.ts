/**
 * `SplSearch` over the compiler and the user-level SQL path. A search is at most four
 * statements, one after another under the search's query id: the result (one row past
 * the cap, to know it is truncated), the stage counts with the timeline, and with field
 * statistics the table's fields and their statistics.
 */
import { Effect, Layer } from "effect"
import { AppRegistry } from "../../../domain/AppRegistry.js"
import {
  ColumnMeta,
  QueryStatistics,
  type QueryResult as JsonResult
} from "../../../domain/api/QueryApi.js"
import {
  SplExplain,
  SplExplainedStage,
  SplSearchResult,
  SplStage
} from "../../../domain/api/SplApi.js"
import type { ClusterScope } from "../../../domain/Authorization.js"
import type { DatabaseName } from "../../../domain/Ids.js"
import { QueryRunner } from "../../../domain/QueryRunner.js"
import { SplCompiler } from "../../../domain/SplCompiler.js"
import type { CompiledSearch } from "../../../domain/SplCompiler.js"
import { SplSearch } from "../../../domain/SplSearch.js"
import type { SplSearchQuery } from "../../../domain/SplSearch.js"
import { RESULT_ROWS, splCapabilities } from "./Capabilities.js"
import { countsAndTimeline } from "./CountsAndTimeline.js"
import { statisticsOfFields } from "./FieldStatisticsStatements.js"
import { runJson } from "./Statements.js"
import type { Target } from "./Statements.js"
import { resolveWindow } from "./Window.js"
import { pivotSeries } from "../Pivot.js"

const SPL_APP = "spl-app" as const

const total = (results: ReadonlyArray<JsonResult>) =>
  new QueryStatistics({
    elapsed: results.reduce((sum, r) => sum + r.statistics.elapsed, 0),
    rows_read: results.reduce((sum, r) => sum + r.statistics.rows_read, 0),
    bytes_read: results.reduce((sum, r) => sum + r.statistics.bytes_read, 0)
  })

const explained = (compiled: CompiledSearch) =>
  new SplSearchResult({
    meta: [],
    data: [],
    rows: 0,
    statistics: new QueryStatistics({ elapsed: 0, rows_read: 0, bytes_read: 0 }),
    spl: compiled.spl,
    timeline: [],
    result_kind: compiled.resultKind,
    truncated: false,
    raw_events: [],
    stages: compiled.stages.map(
      (stage) =>
        new SplStage({
          command: stage.command,
          expression: stage.expression,
          output_rows: null,
          truncated: false
        })
    ),
    explain: new SplExplain({
      stages: compiled.stages.map(
        (stage) =>
          new SplExplainedStage({
            command: stage.command,
            expression: stage.expression,
            sql: stage.sql
          })
      ),
      sql: compiled.sql
    })
  })

/**
 * The rows as Splunk shows them: a split timechart's rows (one per bucket and series)
 * pivot into one column per series; every other result is shown as it came.
 */
const presented = (
  compiled: CompiledSearch,
  meta: JsonResult["meta"],
  rows: JsonResult["data"]
): Pick<JsonResult, "meta" | "data"> => {
  if (compiled.series === undefined) return { meta, data: rows }
  const pivoted = pivotSeries(rows, compiled.series)
  const valueType = meta.find((column) => column.name === compiled.series?.value)?.type ?? "String"
  const timeType = meta.find((column) => column.name === "_time")?.type ?? "String"
  return {
    meta: pivoted.columns.map(
      (name) => new ColumnMeta({ name, type: name === "_time" ? timeType : valueType })
    ),
    data: pivoted.rows
  }
}

export const SplSearchLive = Layer.effect(
  SplSearch,
  Effect.gen(function* () {
    const compiler = yield* SplCompiler
    const runner = yield* QueryRunner
    const apps = yield* AppRegistry

    const search = Effect.fn("SplSearch.search")(function* (
      scope: ClusterScope,
      database: DatabaseName,
      query: SplSearchQuery
    ) {
      yield* apps.require(scope.clusterId, SPL_APP)
      const requested = yield* resolveWindow(query.earliest, query.latest)
      const compiled = yield* compiler.compile(query.spl, requested)
      if (query.explain) return explained(compiled)
      // `earliest=`/`latest=` in the text replace the request's bounds: the timeline spans those.
      const window = {
        earliest: compiled.window.earliest ?? requested.earliest,
        latest: compiled.window.latest ?? requested.latest
      }
      const target: Target = { runner, scope, database, queryId: query.queryId }
      const main = yield* runJson(
        target,
        `SELECT * FROM (${compiled.sql}) LIMIT ${RESULT_ROWS + 1}`
      )
      const counts = yield* countsAndTimeline(target, compiled, window, main.data.length)
      const described = query.includeFieldStatistics
        ? yield* statisticsOfFields(compiler, target, compiled, window)
        : undefined
      const { meta, data } = presented(compiled, main.meta, main.data.slice(0, RESULT_ROWS))
      return new SplSearchResult({
        meta,
        data,
        rows: data.length,
        statistics: total([main, counts.result, ...(described?.results ?? [])]),
        spl: compiled.spl,
        timeline: counts.timeline,
        result_kind: compiled.resultKind,
        truncated: main.data.length > RESULT_ROWS,
        // An events search returns events; a statistics search returns no events of its own.
        raw_events: compiled.resultKind === "events" ? data : [],
        stages: counts.stages,
        ...(described === undefined ? {} : { field_statistics: described.fields })
      })
    })

    return SplSearch.of({ search, capabilities: Effect.succeed(splCapabilities) })
  })
)
