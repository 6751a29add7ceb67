/**
 * What a stage's rows hold, as the compiler tracks it between stages: the visible fields
 * (an SPL name over an SQL column), whether the event's fields are still readable from
 * the stored JSON (`__raw_data`), and the order the rows are in.
 *
 * SQL column names are the stored columns' own (`_time`, `_raw`, metadata) or fresh
 * `__cN` names, never an SPL name, so no stage's alias can shadow a column, a rename
 * costs no SQL, and a column the order needs is kept (hidden) when its field is dropped.
 */
import { quoteIdentifier, quoteString } from "../../engine/Sql.js"

/**
 * `value`: text as extracted (Nullable(String)), numeric when it reads as a number;
 * `number`: Nullable(Float64); `string`: a text literal or text function result;
 * `time`: `_time` (DateTime64(3)); `multi`: Array(String) (`values()`); `bool`: a test.
 */
export type Kind = "value" | "number" | "string" | "time" | "multi" | "bool"

export interface Column {
  readonly name: string
  readonly sql: string
  readonly kind: Exclude<Kind, "bool">
}

export interface OrderKey {
  readonly sql: string
  readonly descending: boolean
}

/**
 * The stored JSON's fields a search reads, extracted once where `spl_events` is read:
 * reading a field of the JSON after a subquery reads the whole JSON column (every path),
 * the base stage's subcolumn only that path. `columns`: field → SQL column holding its
 * text; `numbers`: field → SQL column holding it as a number (`extractNumber`); `read`:
 * every field asked for (a first compilation learns them); `whole`: the JSON itself is
 * still carried (for fields not extracted); `stored`: the fields the events hold, which
 * wildcards match.
 */
export interface JsonFields {
  readonly columns: ReadonlyMap<string, string>
  readonly numbers: ReadonlyMap<string, string>
  readonly read: Set<string>
  readonly whole: boolean
  readonly stored: ReadonlyArray<string>
}

export interface Rows {
  readonly columns: ReadonlyArray<Column>
  readonly raw: boolean
  readonly json?: JsonFields
  /** Fields of the stored JSON no longer readable (renamed away). */
  readonly removed: ReadonlySet<string>
  readonly order: ReadonlyArray<OrderKey>
}

export interface Value {
  readonly sql: string
  readonly kind: Kind
  /** The same value as a number, read more cheaply than by parsing `sql` (a JSON field). */
  readonly number?: string
}

export const RAW_DATA = "__raw_data"

const METADATA = ["_raw", "host", "source", "sourcetype", "index"] as const

/** The rows of `spl_events`: newest first. */
export const eventRows: Rows = {
  columns: [
    { name: "_time", sql: "_time", kind: "time" },
    ...METADATA.map((name): Column => ({ name, sql: name, kind: "value" }))
  ],
  raw: true,
  removed: new Set(),
  order: [{ sql: "_time", descending: true }]
}

export const ident = quoteIdentifier

/**
 * The SQL columns a stage passes on: visible ones, those the order needs, the JSON (its
 * extracted fields when they are known).
 */
export const carried = (rows: Rows): Array<string> => [
  ...new Set([
    ...rows.columns.map((c) => c.sql),
    ...rows.order.map((o) => o.sql),
    ...(rows.raw ? [...(rows.json?.columns.values() ?? [])] : []),
    ...(rows.raw ? [...(rows.json?.numbers.values() ?? [])] : []),
    ...(rows.raw && rows.json?.whole !== false ? [RAW_DATA] : [])
  ])
]

export const selectCarried = (rows: Rows) => carried(rows).map(ident).join(", ")

export const orderBy = (order: ReadonlyArray<OrderKey>, qualifier = "") =>
  order.map((o) => `${qualifier}${ident(o.sql)}${o.descending ? " DESC" : " ASC"}`).join(", ")

/** A field's text read from the stored JSON where the table is read (`JsonFields`). */
export const extractField = (name: string) =>
  `CAST(${ident(RAW_DATA)}.${ident(name)} AS Nullable(String))`

/**
 * A field of the stored JSON as a number, null when its text is not numeric: the same
 * numbers as `toFloat64OrNull` of `extractField`, since a missing field's text here is
 * '' (never numeric), and faster over many events: the engine converts JSON values to
 * `String` more quickly than to `Nullable(String)`.
 */
export const extractNumber = (name: string) =>
  `toFloat64OrNull(CAST(${ident(RAW_DATA)}.${ident(name)} AS String))`

const NULL_TEXT = "CAST(NULL AS Nullable(String))"

/** A field's value in `rows`: a visible column, a field of the stored JSON, or null. */
export const fieldValue = (rows: Rows, name: string): Value => {
  const column = rows.columns.find((c) => c.name === name)
  if (column !== undefined) return { sql: ident(column.sql), kind: column.kind }
  if (!rows.raw || rows.removed.has(name) || (METADATA as ReadonlyArray<string>).includes(name))
    return { sql: NULL_TEXT, kind: "value" }
  if (name === "_time") return { sql: NULL_TEXT, kind: "value" }
  rows.json?.read.add(name)
  const extracted = rows.json?.columns.get(name)
  const number = rows.json?.numbers.get(name)
  if (extracted !== undefined)
    return {
      sql: ident(extracted),
      kind: "value",
      ...(number === undefined ? {} : { number: ident(number) })
    }
  return {
    sql: `CAST(getSubcolumn(${ident(RAW_DATA)}, ${quoteString(name)}) AS Nullable(String))`,
    kind: "value"
  }
}

/** A value as text: numbers as Splunk prints them, `_time` as epoch seconds. */
export const asText = (value: Value): string => {
  switch (value.kind) {
    case "number":
      return `toString(${value.sql})`
    case "time":
      return `toString(toUnixTimestamp64Milli(${value.sql}) / 1000)`
    case "multi":
      return `arrayStringConcat(${value.sql}, ' ')`
    case "bool":
      return `if(${value.sql}, 'true', 'false')`
    default:
      return value.sql
  }
}

/** A value as a number, null when its text is not numeric. */
export const asNumber = (value: Value): string => {
  switch (value.kind) {
    case "number":
      return value.sql
    case "time":
      return `(toUnixTimestamp64Milli(${value.sql}) / 1000)`
    case "bool":
      return `toFloat64(${value.sql})`
    default:
      return value.number ?? `toFloat64OrNull(${asText(value)})`
  }
}

/** A field name the compiler can carry: not empty, not the service's own. */
export const usableName = (name: string) =>
  name.length > 0 && !name.startsWith("__") && !/(^|\.)[:^]/.test(name)

/** A number as SQL text (`inf` where JavaScript says `Infinity`). */
export const numberLiteral = (n: number) =>
  Number.isFinite(n) ? `toFloat64(${String(n)})` : n > 0 ? "inf" : n < 0 ? "-inf" : "nan"
