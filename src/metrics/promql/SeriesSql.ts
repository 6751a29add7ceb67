/**
 * The SQL a selector reads: matchers become conditions on the series table only, so
 * selection never scans samples; samples are read per selected id and time range. The
 * statements run in the caller's database, so tables go unqualified.
 */
import { quoteIdentifier, quoteString } from "../../engine/Sql.js"
import { METADATA_TABLE, SAMPLES_TABLE, SERIES_TABLE } from "../MetricsTables.js"
import { STALE_BITS } from "../SampleBits.js"
import type { Matcher } from "./Ast.js"

const column = (name: string) =>
  name === "__name__" ? "metric_name" : `labels[${quoteString(name)}]`

const condition = (m: Matcher) => {
  const target = column(m.name)
  switch (m.type) {
    case "=":
      return `${target} = ${quoteString(m.value)}`
    case "!=":
      return `${target} != ${quoteString(m.value)}`
    case "=~":
      return `match(${target}, ${quoteString(`^(?:${m.value})$`)})`
    case "!~":
      return `NOT match(${target}, ${quoteString(`^(?:${m.value})$`)})`
  }
}

const where = (matchers: ReadonlyArray<Matcher>) =>
  matchers.length === 0 ? "1" : matchers.map(condition).join(" AND ")

/** Series that match and have samples in `(from, to]` (any time when not given). */
export const seriesSql = (
  matchers: ReadonlyArray<Matcher>,
  from: number | undefined,
  to: number | undefined
) =>
  `SELECT toString(id) AS id, any(labels) AS series_labels FROM ${quoteIdentifier(SERIES_TABLE)} ` +
  `WHERE ${where(matchers)} GROUP BY id` +
  (from === undefined || to === undefined
    ? ""
    : ` HAVING max(max_time) > ${Math.floor(from)} AND min(min_time) <= ${Math.floor(to)}`)

/**
 * One row per selected series with samples in `(from, to]`: its labels (JSON in base64,
 * which no TSV escaping touches), then its times, values and stale flags as arrays in
 * time order. One statement instead of a series read and a samples read, and one line
 * per series instead of one per sample (measured on the 539 compliance queries: each
 * statement is a round trip to the engine worker, and the text of a sample per line was
 * most of a large query's memory). Float64 text is the shortest that parses back to the
 * same double; the stale marker, a NaN by its bits, gets its own flag.
 */
export const seriesSamplesSql = (matchers: ReadonlyArray<Matcher>, from: number, to: number) =>
  `SELECT base64Encode(toJSONString(s.series_labels)), ` +
  `arrayMap(p -> p.1, points), arrayMap(p -> p.2, points), arrayMap(p -> p.3, points) ` +
  `FROM (SELECT id, arraySort(p -> p.1, groupArray((toUnixTimestamp64Milli(timestamp), value, ` +
  `reinterpretAsUInt64(value) = ${STALE_BITS}))) AS points ` +
  `FROM ${quoteIdentifier(SAMPLES_TABLE)} ` +
  `WHERE id IN (SELECT id FROM ${quoteIdentifier(SERIES_TABLE)} WHERE ${where(matchers)}) ` +
  `AND timestamp > fromUnixTimestamp64Milli(toInt64(${Math.floor(from)}), 'UTC') ` +
  `AND timestamp <= fromUnixTimestamp64Milli(toInt64(${Math.floor(to)}), 'UTC') ` +
  `GROUP BY id) AS x ` +
  `INNER JOIN (SELECT id, any(labels) AS series_labels FROM ${quoteIdentifier(SERIES_TABLE)} ` +
  `WHERE ${where(matchers)} GROUP BY id) AS s ON x.id = s.id`

/** The newest metadata of each metric family, or of one. */
export const metadataSql = (metric: string | undefined) =>
  `SELECT metric_family_name AS metric, argMax(type, updated) AS type, ` +
  `argMax(help, updated) AS help, argMax(unit, updated) AS unit ` +
  `FROM ${quoteIdentifier(METADATA_TABLE)} ` +
  (metric === undefined ? "" : `WHERE metric_family_name = ${quoteString(metric)} `) +
  `GROUP BY metric_family_name ORDER BY metric_family_name`
