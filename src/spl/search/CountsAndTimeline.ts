/**
 * One statement for the row counts of the stages (StageCounts.ts) and the timeline's
 * buckets (Timeline.ts): the probes and the bucket counts of the population are scalar
 * subqueries of one `SELECT`, so a search costs one round trip for both. The timeline's
 * part is always there; the probes take what is left of the SQL budget. The last stage
 * is counted by the result itself.
 */
import { Effect, Schema } from "effect"
import type { CompiledSearch } from "../../../domain/SplCompiler.js"
import { SQL_BUDGET } from "../compiler/Budget.js"
import { countedStages, populationStage, stageProbes } from "./StageCounts.js"
import { EngineNumber, rowsAs, runJson } from "./Statements.js"
import type { Target } from "./Statements.js"
import { timelineOf, zeroFilled } from "./Timeline.js"
import type { Window } from "./Window.js"

const CountsRow = Schema.Struct({
  timeline: Schema.Array(Schema.Tuple(EngineNumber, EngineNumber))
})
const decodeCount = Schema.decodeUnknown(EngineNumber)

/** `resultRows`: the rows of the result statement (one past the cap when there are more). */
export const countsAndTimeline = (
  target: Target,
  compiled: CompiledSearch,
  window: Window,
  resultRows: number
) =>
  Effect.gen(function* () {
    const timeline = timelineOf(window)
    const population = compiled.stages[populationStage(compiled.stages)]!.sql
    const timelineSql =
      `(SELECT groupArray((k, c)) FROM (SELECT ${timeline.keySql} AS k, ` +
      `toFloat64(count()) AS c FROM (${population}) GROUP BY k)) AS timeline`
    const probes = stageProbes(compiled.stages, SQL_BUDGET - timelineSql.length)
    const result = yield* runJson(
      target,
      `SELECT ${[...probes.map((p) => p.sql), timelineSql].join(", ")}`
    )
    const row = result.data[0] ?? {}
    const [counts] = yield* rowsAs(CountsRow, result)
    const probed = new Map<number, number>([[compiled.stages.length - 1, resultRows]])
    for (const probe of probes)
      probed.set(probe.stage, yield* decodeCount(row[probe.column]).pipe(Effect.orDie))
    return {
      result,
      stages: countedStages(compiled.stages, probed),
      timeline: zeroFilled(timeline, new Map(counts?.timeline ?? []))
    }
  })
