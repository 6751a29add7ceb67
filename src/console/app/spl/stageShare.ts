/**
 * The stage funnel's percentages, by the API's rule: only between consecutive stages whose
 * counts are known and exact, the previous above 0 and the current not above it.
 */
export interface StageCount {
  readonly output_rows: number | null
  readonly truncated: boolean
}

export interface StageShare {
  readonly keptPercent: number
  readonly affectedRows: number
  readonly affectedPercent: number
}

export const stageShare = (
  previous: StageCount | undefined,
  current: StageCount
): StageShare | null => {
  if (previous === undefined) return null
  const before = previous.output_rows
  const after = current.output_rows
  if (before === null || after === null || previous.truncated || current.truncated) return null
  if (before <= 0 || after > before) return null
  const keptPercent = (after / before) * 100
  return { keptPercent, affectedRows: before - after, affectedPercent: 100 - keptPercent }
}

export const formatPercent = (value: number) => `${value.toFixed(1)} %`
