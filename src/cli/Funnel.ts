/**
 * The stage funnel of a search: rows after each stage, and the share a stage kept. Shares
 * are only honest between consecutive stages whose counts are both measured and exact, the
 * earlier one non-zero and the later not larger; anywhere else they are left blank.
 */
import * as Table from "./Table.js"

export interface StageCount {
  readonly command: string
  readonly expression: string
  readonly output_rows: number | null
  readonly truncated: boolean
}

export interface StageShare {
  readonly keptPercent: number
  readonly affectedRows: number
  readonly affectedPercent: number
}

const exact = (stage: StageCount | undefined): stage is StageCount & { output_rows: number } =>
  stage !== undefined && stage.output_rows !== null && !stage.truncated

export const shareOf = (
  previous: StageCount | undefined,
  current: StageCount
): StageShare | undefined => {
  if (!exact(previous) || !exact(current)) return undefined
  if (previous.output_rows <= 0 || current.output_rows > previous.output_rows) return undefined
  const keptPercent = (current.output_rows / previous.output_rows) * 100
  return {
    keptPercent,
    affectedRows: previous.output_rows - current.output_rows,
    affectedPercent: 100 - keptPercent
  }
}

export const rowsText = (stage: StageCount) =>
  stage.output_rows === null
    ? "—"
    : stage.truncated
      ? `≥ ${Table.count(stage.output_rows)}`
      : Table.count(stage.output_rows)

/** A stage as written: its expression, which may or may not repeat the command's name. */
export const stageLabel = (stage: { readonly command: string; readonly expression: string }) =>
  stage.expression.startsWith(stage.command)
    ? stage.expression
    : `${stage.command} ${stage.expression}`.trim()

const percent = (n: number) => `${n.toFixed(1)}%`

/** The funnel as table rows: stage, rows, kept, affected. */
export const rowsOf = (stages: ReadonlyArray<StageCount>) =>
  stages.map((stage, i) => {
    const share = i === 0 ? undefined : shareOf(stages[i - 1], stage)
    return [
      stageLabel(stage),
      rowsText(stage),
      share === undefined ? "" : percent(share.keptPercent),
      share === undefined
        ? ""
        : `${Table.count(share.affectedRows)} (${percent(share.affectedPercent)})`
    ]
  })
