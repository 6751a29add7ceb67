/**
 * Row counts of the stages: a stage that can change the
 * number of rows is measured by counting at most `STAGE_ROW_CAP + 1` of its rows (a
 * 10,001st row proves the count larger: `truncated`); a row-preserving stage carries
 * the count before it. Only the first `MEASURED_STAGES`, and only while the probes fit
 * the SQL budget; every other stage is `null`. All probes go in one statement.
 */
import type { CompiledStage } from "../../../domain/SplCompiler.js"
import { SplStage } from "../../../domain/api/SplApi.js"
import { quoteIdentifier } from "../../engine/Sql.js"

export const STAGE_ROW_CAP = 10_000
export const MEASURED_STAGES = 12

/** Commands whose output has exactly as many rows as their input. */
const ROW_PRESERVING: ReadonlySet<string> = new Set(["eval", "rename", "fields", "table"])

const preserves = (stages: ReadonlyArray<CompiledStage>, i: number) =>
  i > 0 && ROW_PRESERVING.has(stages[i]!.command)

export interface Probe {
  readonly stage: number
  readonly column: string
  readonly sql: string
}

/** The probes to run, in stage order, whose SQL together stays within `budget` bytes. */
export const stageProbes = (
  stages: ReadonlyArray<CompiledStage>,
  budget: number
): ReadonlyArray<Probe> => {
  const probes: Array<Probe> = []
  let size = 0
  // The last stage's rows are the result, read with the same cap: it needs no probe.
  for (let i = 0; i < Math.min(stages.length - 1, MEASURED_STAGES); i++) {
    if (preserves(stages, i)) continue
    const column = `stage_${i}`
    const sql =
      `(SELECT toUInt32(count()) FROM (SELECT 1 FROM (${stages[i]!.sql}) ` +
      `LIMIT ${STAGE_ROW_CAP + 1})) AS ${quoteIdentifier(column)}`
    if (size + sql.length + 2 > budget) break
    size += sql.length + 2
    probes.push({ stage: i, column, sql })
  }
  return probes
}

/** Each stage with its count: probed, carried from the stage before, or null. */
export const countedStages = (
  stages: ReadonlyArray<CompiledStage>,
  probed: ReadonlyMap<number, number>
): ReadonlyArray<SplStage> => {
  const out: Array<SplStage> = []
  stages.forEach((stage, i) => {
    const count = probed.get(i)
    const before = out[i - 1]
    const measured =
      i >= MEASURED_STAGES
        ? null
        : count !== undefined
          ? { output_rows: Math.min(count, STAGE_ROW_CAP), truncated: count > STAGE_ROW_CAP }
          : preserves(stages, i) && before !== undefined && before.output_rows !== null
            ? { output_rows: before.output_rows, truncated: before.truncated }
            : null
    out.push(
      new SplStage({
        command: stage.command,
        expression: stage.expression,
        output_rows: measured?.output_rows ?? null,
        truncated: measured?.truncated ?? false
      })
    )
  })
  return out
}

/**
 * The first stages that only filter events (the base search, then `search`/`where`):
 * the last of them is the population the timeline and the field statistics describe.
 */
export const populationStage = (stages: ReadonlyArray<CompiledStage>) => {
  let last = 0
  while (
    last + 1 < stages.length &&
    (stages[last + 1]!.command === "search" || stages[last + 1]!.command === "where")
  )
    last++
  return last
}
