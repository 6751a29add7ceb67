/**
 * `SplSearch` over the compiler and `QueryRunner`'s path for sluice's own statements. A search is at most four
 * statements, one after another under the search's query id: the table's fields when
 * the search has a `*` or asks for field statistics (StoredFields.ts), the result (one
 * row past the cap, to know it is truncated), the stage counts with the timeline, and
 * the field statistics.
 */
import { Effect, Layer, Option } from "effect"
import { AppIds } from "../../../domain/AppIds.js"
import { AppRegistry } from "../../../domain/AppRegistry.js"
import { ColumnMeta, QueryStatistics } from "../../../domain/api/QueryApi.js"
import {
  SplExplain,
  SplExplainedStage,
  SplSearchResult,
  SplStage
} from "../../../domain/api/SplApi.js"
import type { ClusterScope } from "../../../domain/Authorization.js"
import { QueryRefused } from "../../../domain/Errors.js"
import type { DatabaseName } from "../../../domain/Ids.js"
import { QueryRunner } from "../../../domain/QueryRunner.js"
import type { CompiledRows } from "../../../domain/QueryRunner.js"
import { SplCompiler } from "../../../domain/SplCompiler.js"
import type { CompiledSearch } from "../../../domain/SplCompiler.js"
import { SPL_EVENTS_TABLE } from "../../../domain/SplEvent.js"
import { SplSearch } from "../../../domain/SplSearch.js"
import type { SplSearchQuery } from "../../../domain/SplSearch.js"
import { RESULT_ROWS, splCapabilities } from "./Capabilities.js"
import { countsAndTimeline } from "./CountsAndTimeline.js"
import { storedFields } from "./FieldStatistics.js"
import { statisticsOfFields } from "./FieldStatisticsStatements.js"
import { describeEvents, eventsExist, mayMatchStoredFields } from "./StoredFields.js"
import { runJson } from "./Statements.js"
import type { Target } from "./Statements.js"
import { resolveWindow } from "./Window.js"
import type { Window } from "./Window.js"
import { pivotSeries } from "../compiler/Pivot.js"

/**
 * A database's events table is made by its first event: a search before then is told
 * where events come from, not the engine's complaint about a table named in SQL it never
 * wrote.
 */
const noEvents = (database: DatabaseName) =>
  new QueryRefused({
    message: `Database '${database}' holds no events yet.`,
    hint: `Events sent to the event collector (POST /services/collector/event or /services/collector/raw with an API key of the cluster) land in its table ${SPL_EVENTS_TABLE}, which searches read.`
  })

const total = (results: ReadonlyArray<CompiledRows>) =>
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
  meta: CompiledRows["meta"],
  rows: CompiledRows["data"]
): Pick<CompiledRows, "meta" | "data"> => {
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
      yield* apps.require(scope.clusterId, AppIds.spl)
      const requested = yield* resolveWindow(query.earliest, query.latest)
      // Compiled first without the stored fields: a search outside the subset is refused
      // before any statement runs.
      const checked = yield* compiler.compile(query.spl, requested)
      const target: Target = { runner, scope, database, queryId: query.queryId }
      const wildcards = mayMatchStoredFields(query.spl)
      if (query.explain) {
        if (!wildcards) return explained(checked)
        // Explaining reads no events; where there is no table to describe, nothing matches.
        const described = yield* describeEvents(target).pipe(Effect.option)
        const stored = Option.match(described, {
          onNone: () => [],
          onSome: ({ columns }) => storedFields(columns)
        })
        return explained(yield* compiler.compile(query.spl, requested, stored))
      }
      return yield* searchEvents(target, query, checked, requested, wildcards).pipe(
        // The search's own refusal stands unless the table is surely missing: a failing
        // check (a cancelled search, an engine gone) says nothing about it.
        Effect.catchTag("QueryRefused", (refused) =>
          eventsExist(target).pipe(
            Effect.orElseSucceed(() => true),
            Effect.flatMap((exist) => Effect.fail(exist ? refused : noEvents(database)))
          )
        )
      )
    })

    const searchEvents = Effect.fnUntraced(function* (
      target: Target,
      query: SplSearchQuery,
      checked: CompiledSearch,
      requested: Window,
      wildcards: boolean
    ) {
      const described =
        wildcards || query.includeFieldStatistics ? yield* describeEvents(target) : undefined
      const compiled =
        wildcards && described !== undefined
          ? yield* compiler.compile(query.spl, requested, storedFields(described.columns))
          : checked
      // `earliest=`/`latest=` in the text replace the request's bounds: the timeline spans those.
      const window = {
        earliest: compiled.window.earliest ?? requested.earliest,
        latest: compiled.window.latest ?? requested.latest
      }
      const main = yield* runJson(
        target,
        `SELECT * FROM (${compiled.sql}) LIMIT ${RESULT_ROWS + 1}`
      )
      const counts = yield* countsAndTimeline(target, compiled, window, main.data.length)
      const statistics =
        query.includeFieldStatistics && described !== undefined
          ? yield* statisticsOfFields(compiler, target, compiled, window, described.columns)
          : undefined
      const { meta, data } = presented(compiled, main.meta, main.data.slice(0, RESULT_ROWS))
      return new SplSearchResult({
        meta,
        data,
        rows: data.length,
        statistics: total([
          ...(described === undefined ? [] : [described.result]),
          main,
          counts.result,
          ...(statistics?.results ?? [])
        ]),
        spl: compiled.spl,
        timeline: counts.timeline,
        result_kind: compiled.resultKind,
        truncated: main.data.length > RESULT_ROWS,
        // An events search returns events; a statistics search returns no events of its own.
        raw_events: compiled.resultKind === "events" ? data : [],
        stages: counts.stages,
        ...(statistics === undefined ? {} : { field_statistics: statistics.fields })
      })
    })

    return SplSearch.of({ search, capabilities: Effect.succeed(splCapabilities) })
  })
)
