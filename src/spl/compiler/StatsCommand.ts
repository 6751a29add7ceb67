/**
 * `stats`: one row without BY (a count of 0 over no events), one row per
 * combination with BY, events missing a BY field left out, rows ascending by the BY
 * values; a column is named by `AS` or after the call (`avg(bytes)`). count/dc/values/list
 * take values as text; sum/avg as numbers, ignoring the rest; min/max numerically when
 * any value is a number; `values` distinct in code-point order, `list` in the rows'
 * order, the first 100.
 */
import type { Aggregate, Command } from "./Ast.js"
import { expanded } from "./FieldPatterns.js"
import { refuse } from "./Refusal.js"
import { asNumber, asText, fieldValue, ident, orderBy, usableName } from "./Rows.js"
import type { Column, Rows } from "./Rows.js"
import type { Names, Stage } from "./Stage.js"

type Of<C extends Command["command"]> = Extract<Command, { command: C }>

export const AGGREGATES = ["count", "sum", "avg", "min", "max", "dc", "values", "list"] as const

/** `list()` keeps at most this many values (Splunk's default). */
export const LIST_LIMIT = 100

/** The position of each input row in the rows' order, for `list()`. */
const ORDINAL = "__ord"

const aggregateSql = (rows: Rows, aggregate: Aggregate): Pick<Column, "kind"> & { sql: string } => {
  const { fn, field } = aggregate
  if (field === null) {
    if (fn === "count") return { sql: "toFloat64(count())", kind: "number" }
    return refuse("stats", aggregate.at, `${fn} needs a field: ${fn}(field)`)
  }
  if (!usableName(field))
    refuse("stats", aggregate.at, `'${field}' is not a field name stats can use`)
  const value = fieldValue(rows, field)
  const text = asText(value)
  const number = asNumber(value)
  switch (fn) {
    case "count":
      return { sql: `toFloat64(count(${text}))`, kind: "number" }
    case "dc":
      return { sql: `toFloat64(uniqExact(${text}))`, kind: "number" }
    case "sum":
      return { sql: `sumOrNull(${number})`, kind: "number" }
    case "avg":
      return { sql: `avgOrNull(${number})`, kind: "number" }
    case "min":
    case "max":
      return {
        sql: `if(count(${number}) > 0, toString(${fn}OrNull(${number})), ${fn}OrNull(${text}))`,
        kind: "value"
      }
    case "values":
      return { sql: `arraySort(groupUniqArray(${text}))`, kind: "multi" }
    case "list":
      return {
        sql: `arrayMap(__t -> __t.2, groupArraySortedIf(${LIST_LIMIT})(tuple(${ORDINAL}, assumeNotNull(${text})), ${text} IS NOT NULL))`,
        kind: "multi"
      }
    default:
      return refuse("stats", aggregate.at, `the stats function ${fn}() is not in the subset`)
  }
}

export const stats = (names: Names, input: Stage, command: Of<"stats">): Stage => {
  const by = expanded(input.rows, command.by).map((field) => {
    if (!usableName(field))
      refuse("stats", command.at, `'${field}' is not a field name stats can use`)
    return { name: field, sql: names.fresh(), value: asText(fieldValue(input.rows, field)) }
  })
  const aggregates = command.aggregates.map((aggregate) => ({
    name:
      aggregate.as ??
      (aggregate.field === null ? aggregate.fn : `${aggregate.fn}(${aggregate.field})`),
    column: names.fresh(),
    ...aggregateSql(input.rows, aggregate)
  }))
  const columns: Array<Column> = [
    ...by.map(({ name, sql }): Column => ({ name, sql, kind: "value" })),
    ...aggregates.map(({ name, column, kind }): Column => ({ name, sql: column, kind }))
  ]
  const seen = new Set<string>()
  for (const column of columns) {
    if (!usableName(column.name) || seen.has(column.name))
      refuse("stats", command.at, `stats names the column '${column.name}' twice or reserved`)
    seen.add(column.name)
  }
  const select = [
    ...by.map((b) => `${b.value} AS ${ident(b.sql)}`),
    ...aggregates.map((a) => `${a.sql} AS ${ident(a.column)}`)
  ].join(", ")
  const present = by.map((b) => `${b.value} IS NOT NULL`).join(" AND ")
  // Only list() needs the rows numbered in their order (a sort of the whole input).
  const from = command.aggregates.some((a) => a.fn === "list")
    ? `SELECT *, row_number() OVER (${input.rows.order.length === 0 ? "" : `ORDER BY ${orderBy(input.rows.order)}`}) AS ${ORDINAL} FROM (${input.sql})`
    : input.sql
  const rows: Rows = {
    columns,
    raw: false,
    removed: new Set(),
    order: by.map((b) => ({ sql: b.sql, descending: false }))
  }
  return {
    rows,
    sql:
      `SELECT ${select} FROM (${from})` +
      (by.length === 0
        ? ""
        : ` WHERE ${present} GROUP BY ${by.map((b) => ident(b.sql)).join(", ")}`)
  }
}
