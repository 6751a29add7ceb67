/**
 * A split timechart's rows (one per bucket and series, `CompiledSearch.series`) as
 * Splunk shows them: one row per bucket, `_time` then one column per series, in the
 * order the series first appear (by name, NULL and OTHER last). Pure, for whoever
 * presents the result.
 */
export interface Pivoted {
  readonly columns: ReadonlyArray<string>
  readonly rows: ReadonlyArray<Record<string, unknown>>
}

export const pivotSeries = (
  rows: ReadonlyArray<Record<string, unknown>>,
  series: { readonly split: string; readonly value: string }
): Pivoted => {
  const columns = ["_time"]
  const byTime = new Map<unknown, Record<string, unknown>>()
  for (const row of rows) {
    const name = String(row[series.split])
    if (!columns.includes(name)) columns.push(name)
    const time = row["_time"]
    const out = byTime.get(time) ?? { _time: time }
    out[name] = row[series.value]
    byTime.set(time, out)
  }
  return {
    columns,
    rows: [...byTime.values()].map((row) =>
      Object.fromEntries(columns.map((c) => [c, row[c] ?? null]))
    )
  }
}
