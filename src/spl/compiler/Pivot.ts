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
  // Series names are data (a host may be called `__proto__`): kept in Maps, not assigned
  // into objects, whose `__proto__` would swallow the value.
  const byTime = new Map<unknown, Map<string, unknown>>()
  for (const row of rows) {
    const name = String(row[series.split])
    if (!columns.includes(name)) columns.push(name)
    const time = row["_time"]
    const values = byTime.get(time) ?? new Map<string, unknown>([["_time", time]])
    values.set(name, row[series.value])
    byTime.set(time, values)
  }
  return {
    columns,
    rows: [...byTime.values()].map((values) =>
      Object.fromEntries(columns.map((c) => [c, values.get(c) ?? null]))
    )
  }
}
