/**
 * `timechart`: events counted or aggregated per time bucket. One aggregate
 * with an optional split-by field, or several aggregates without one. Split series are
 * scored by the sum of their values over all buckets; the top `limit` (10; 0 for all)
 * are kept, the rest summed into `OTHER` (`useother`), events without the field form
 * `NULL` (`usenull`); `nullstr`/`otherstr` rename them. With `cont` (the default) empty
 * buckets are filled across the window: 0 for count and dc, null otherwise.
 *
 * Rows are one per bucket (`_time`, then the aggregates), or, with a split-by, one per
 * bucket and series (`_time`, the split field holding the series name, the aggregate),
 * ordered by time then series name, NULL and OTHER last. A series cannot be a column in
 * SQL before the data is read; `pivotSeries` (Pivot.ts) turns the rows into Splunk's
 * one-column-per-series table.
 */
import type { SearchWindow } from "../../../domain/SplCompiler.js"
import type { Aggregate, Command } from "./Ast.js"
import { quoteString } from "../../engine/Sql.js"
import { TIMECHART_AGGREGATES } from "./Commands.js"
import { refuse } from "./Refusal.js"
import { asNumber, asText, fieldValue, ident, usableName } from "./Rows.js"
import type { Column, Rows } from "./Rows.js"
import type { Names, Stage } from "./Stage.js"
import { readOptions } from "./TimechartOptions.js"
import { bucketOf, instant, interval } from "./TimechartSpan.js"

type Of<C extends Command["command"]> = Extract<Command, { command: C }>

/** Aggregates as numbers; count and dc are never null (their empty buckets are 0). */
const aggregateSql = (rows: Rows, aggregate: Aggregate) => {
  const { fn, field } = aggregate
  if (field === null)
    return fn === "count"
      ? { sql: "toFloat64(count())", counts: true }
      : refuse("timechart", aggregate.at, `${fn} needs a field: ${fn}(field)`)
  if (!usableName(field))
    refuse("timechart", aggregate.at, `'${field}' is not a field name timechart can use`)
  const value = fieldValue(rows, field)
  switch (fn) {
    case "count":
      return { sql: `toFloat64(count(${asText(value)}))`, counts: true }
    case "dc":
      return { sql: `toFloat64(uniqExact(${asText(value)}))`, counts: true }
    case "sum":
    case "avg":
    case "min":
    case "max":
      return { sql: `${fn}OrNull(${asNumber(value)})`, counts: false }
    default:
      return refuse(
        "timechart",
        aggregate.at,
        `the timechart function ${fn}() is not in the subset (${TIMECHART_AGGREGATES.join(", ")})`
      )
  }
}

const nameOf = (a: Aggregate) => a.as ?? (a.field === null ? a.fn : `${a.fn}(${a.field})`)

export const timechart = (
  names: Names,
  input: Stage,
  command: Of<"timechart">,
  window: SearchWindow
): Stage => {
  const time = input.rows.columns.find((c) => c.name === "_time" && c.kind === "time")
  if (time === undefined)
    refuse("timechart", command.at, "timechart needs the events' _time, which this stage has not")
  const options = readOptions(command, window)
  const bucket = bucketOf(options.span, ident(time!.sql))
  const fill = !options.cont
    ? ""
    : ` WITH FILL${
        options.from === null || options.to === null
          ? ""
          : ` FROM ${bucketOf(options.span, instant(options.from))} TO ${instant(options.to)}`
      } STEP ${interval(options.span)}`
  const aggregates = command.aggregates.map((a) => ({
    name: nameOf(a),
    column: names.fresh(),
    ...aggregateSql(input.rows, a)
  }))
  const seen = new Set<string>(["_time"])
  for (const { name } of aggregates) {
    if (!usableName(name) || seen.has(name))
      refuse("timechart", command.at, `timechart names the column '${name}' twice or reserved`)
    seen.add(name)
  }
  if (command.by === null) {
    const select = aggregates.map((a) => `${a.sql} AS ${ident(a.column)}`).join(", ")
    return {
      rows: {
        columns: [
          { name: "_time", sql: "__b", kind: "time" },
          ...aggregates.map((a): Column => ({ name: a.name, sql: a.column, kind: "number" }))
        ],
        raw: false,
        removed: new Set(),
        order: [{ sql: "__b", descending: false }]
      },
      sql: `SELECT ${bucket} AS __b, ${select} FROM (${input.sql}) GROUP BY __b ORDER BY __b${fill}`
    }
  }
  if (aggregates.length > 1)
    refuse(
      "timechart",
      command.at,
      "timechart takes one aggregate with a split-by field, or several aggregates without one"
    )
  const split = command.by
  if (!usableName(split) || seen.has(split))
    refuse("timechart", command.at, `'${split}' is not a field name timechart can split by`)
  const aggregate = aggregates[0]!
  const series = asText(fieldValue(input.rows, split))
  const perSeries =
    `SELECT ${bucket} AS __b, ${series} AS __r, ${aggregate.sql} AS __v FROM (${input.sql})` +
    `${options.usenull ? "" : " WHERE __r IS NOT NULL"} GROUP BY __b, __r`
  const scored = `SELECT __b, __r, __v, sum(__v) OVER (PARTITION BY __r) AS __score FROM (${perSeries})`
  const ranked = `SELECT __b, __r, __v, dense_rank() OVER (ORDER BY isNull(__r), __score DESC, __r ASC) AS __rank FROM (${scored})`
  // __k: 0 a kept series, 1 NULL, 2 OTHER (series beyond the limit, summed).
  const kind = `multiIf(__r IS NULL, 1, ${options.limit} > 0 AND __rank > ${options.limit}, 2, 0)`
  const grouped =
    `SELECT __b, ${kind} AS __k, if(__k = 0, assumeNotNull(__r), '') AS __n, ` +
    `${aggregate.counts ? "sum" : "sumOrNull"}(__v) AS __v FROM (${ranked})` +
    `${options.useother ? "" : " WHERE __k != 2"} GROUP BY __b, __k, __n ORDER BY __k, __n, __b${fill}`
  const [label, value] = [names.fresh(), aggregate.column]
  const display = `multiIf(__k = 1, ${quoteString(options.nullstr)}, __k = 2, ${quoteString(options.otherstr)}, __n)`
  return {
    rows: {
      columns: [
        { name: "_time", sql: "__b", kind: "time" },
        { name: split, sql: label, kind: "value" },
        { name: aggregate.name, sql: value, kind: "number" }
      ],
      raw: false,
      removed: new Set(),
      order: ["__b", "__k", "__n"].map((sql) => ({ sql, descending: false }))
    },
    sql: `SELECT __b, __k, __n, ${display} AS ${ident(label)}, __v AS ${ident(value)} FROM (${grouped})`
  }
}

/** A split timechart's rows are one per bucket and series, to be pivoted (Pivot.ts). */
export const seriesOf = (last: Command | undefined) =>
  last?.command === "timechart" && last.by !== null && last.aggregates.length === 1
    ? {
        series: {
          split: last.by,
          value: nameOf(last.aggregates[0]!)
        }
      }
    : {}
