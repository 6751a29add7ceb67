/**
 * Field statistics over the whole filtered population:
 * per field the inferred type, the population's size, how many events have it, the
 * exact number of distinct values, the five most common values with exact counts, and
 * the indexes it was seen in.
 *
 * The population's events are read by the compiler itself: the filtering prefix of the
 * parsed search extended by `table` of the metadata and of every field `spl_events`
 * knows (its ALIAS columns), so a field is read exactly as SPL reads it (as text). One statement
 * then turns the columns into (field, value) pairs and aggregates them; an extra pair
 * `('', '')` per event counts the population.
 */
import { Schema } from "effect"
import { FieldStatistics, TopValue } from "../../../domain/api/SplApi.js"
import { quoteIdentifier, quoteString } from "../../engine/Sql.js"
import { usableName } from "../compiler/Rows.js"
import { EngineNumber } from "./Statements.js"

export const TOP_VALUES = 5
/** Most fields described; past it the first ones by name (metadata always). */
export const MAX_DESCRIBED_FIELDS = 200

export const METADATA = ["host", "source", "sourcetype", "index"] as const

/** What `DESCRIBE TABLE spl_events` answers that matters here. */
export const DescribedColumn = Schema.Struct({ name: Schema.String, default_type: Schema.String })

/**
 * The fields the events hold (the ALIAS columns of `spl_events`), by name, that SPL can
 * name; names starting with `_` are internal to SPL (as a field list hides them).
 */
export const storedFields = (columns: ReadonlyArray<typeof DescribedColumn.Type>) =>
  columns
    .filter((c) => c.default_type === "ALIAS" && usableName(c.name))
    .map((c) => c.name)
    .filter((name) => !(METADATA as ReadonlyArray<string>).includes(name) && !name.startsWith("_"))
    .sort()

/** The stored fields described, the first ones by name. */
export const eventFields = (columns: ReadonlyArray<typeof DescribedColumn.Type>) =>
  storedFields(columns).slice(0, MAX_DESCRIBED_FIELDS)

/** The statement over `tableSql` (the population's `table` of its `names`). */
export const fieldStatisticsSql = (tableSql: string, names: ReadonlyArray<string>) => {
  const pairs = [
    `('', CAST('' AS Nullable(String)))`,
    ...names.map(
      (name) => `(${quoteString(name)}, CAST(__p.${quoteIdentifier(name)} AS Nullable(String)))`
    )
  ]
  const perValue =
    `SELECT __kv.1 AS field, __kv.2 AS value, toFloat64(count()) AS c, ` +
    `groupUniqArray(toString(__p.${quoteIdentifier("index")})) AS indexes, ` +
    `isNotNull(toFloat64OrNull(value)) AS numeric, lower(value) IN ('true', 'false') AS boolean ` +
    `FROM (${tableSql}) AS __p ARRAY JOIN [${pairs.join(", ")}] AS __kv ` +
    `WHERE isNotNull(__kv.2) GROUP BY field, value`
  return (
    `SELECT field, sum(c) AS non_null, toFloat64(count()) AS distinct_values, ` +
    `groupArraySorted(${TOP_VALUES})((-c, value)) AS top, ` +
    `arraySort(arrayDistinct(arrayFlatten(groupArray(indexes)))) AS sources, ` +
    `min(numeric) AS all_numeric, min(boolean) AS all_boolean ` +
    `FROM (${perValue}) GROUP BY field ORDER BY field`
  )
}

export const FieldRow = Schema.Struct({
  field: Schema.String,
  non_null: EngineNumber,
  distinct_values: EngineNumber,
  top: Schema.Array(Schema.Tuple(EngineNumber, Schema.NullOr(Schema.String))),
  sources: Schema.Array(Schema.String),
  all_numeric: EngineNumber,
  all_boolean: EngineNumber
})

/** The entries of the response, from the statement's rows. */
export const fieldStatistics = (
  rows: ReadonlyArray<typeof FieldRow.Type>
): ReadonlyArray<FieldStatistics> => {
  const total = rows.find((row) => row.field === "")?.non_null ?? 0
  return rows
    .filter((row) => row.field !== "")
    .map(
      (row) =>
        new FieldStatistics({
          field: row.field,
          type: row.all_numeric === 1 ? "number" : row.all_boolean === 1 ? "boolean" : "string",
          total,
          non_null: row.non_null,
          coverage: total === 0 ? 0 : row.non_null / total,
          distinct: row.distinct_values,
          top_values: row.top.map(([negated, value]) => new TopValue({ value, count: -negated })),
          sources: row.sources
        })
    )
}
