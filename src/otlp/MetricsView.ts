/**
 * The OTLP app's `metrics` table: one table over the five typed metric
 * tables with their common columns, named by the base name they share (`metrics` over
 * `metrics_gauge` …; an override header's base name likewise), so `SELECT … FROM
 * metrics` answers for every kind. `MetricType` says which kind a row is; `Value` is the
 * gauge's or sum's value, `Count` and `Sum` a histogram's or summary's, NULL elsewhere.
 *
 * A VIEW (a `UNION ALL` of the five), rather than either of the other two ways: a real
 * table filled alongside answered faster but cost a second copy of every point (slower
 * inserts, more bytes) and would have to join each insert's all-or-nothing; a `Merge`
 * table reads a column a kind lacks as 0 rather than NULL (a histogram's `Value` would
 * be 0) and cannot say the kind without `_table`. The view stores nothing and is never
 * out of step with its tables; the engine pushes filters into each branch, so it reads
 * what the typed tables read.
 */
import { quoteIdentifier, quoteString } from "../engine/Sql.js"
import * as TableDdl from "../engine/TableDdl.js"
import * as Layout from "../tables/Layout.js"
import type { MetricKind } from "./OtlpTableDdl.js"
import { METRIC_KINDS } from "./OtlpTableDdl.js"

const COMMON = [
  "ResourceAttributes",
  "ServiceName",
  "ScopeName",
  "ScopeVersion",
  "MetricName",
  "MetricDescription",
  "MetricUnit",
  "Attributes",
  "StartTimeUnix",
  "TimeUnix"
]

const VALUES: Record<MetricKind, { value: string; count: string; sum: string }> = {
  gauge: { value: "Value", count: "NULL", sum: "NULL" },
  sum: { value: "Value", count: "NULL", sum: "NULL" },
  histogram: { value: "NULL", count: "Count", sum: "Sum" },
  exponential_histogram: { value: "NULL", count: "Count", sum: "Sum" },
  summary: { value: "NULL", count: "Count", sum: "Sum" }
}

const branch = (database: string, base: string, kind: MetricKind) => {
  const { value, count, sum } = VALUES[kind]
  // Typed NULLs: a UNION ALL takes each column's type from all branches alike.
  const typed = (expression: string, type: string) =>
    expression === "NULL" ? `CAST(NULL, 'Nullable(${type})')` : `toNullable(${expression})`
  return (
    `SELECT ${COMMON.map(quoteIdentifier).join(", ")}, ` +
    `CAST(${quoteString(kind)}, 'LowCardinality(String)') AS MetricType, ` +
    `${typed(value, "Float64")} AS Value, ${typed(count, "UInt64")} AS Count, ` +
    `${typed(sum, "Float64")} AS Sum ` +
    `FROM ${Layout.qualified(database, `${base}_${kind}`)}`
  )
}

/** Creates the view `base` over `base_gauge` … `base_summary`, unless `base` exists. */
export const createMetricsViewSql = (
  topology: TableDdl.Topology,
  database: string,
  base: string,
  createdAt: string
) =>
  TableDdl.createView(
    topology,
    database,
    base,
    METRIC_KINDS.map((kind) => branch(database, base, kind)).join(" UNION ALL "),
    JSON.stringify({ created_at: createdAt })
  )
