/**
 * The SQL a selector reads: matchers become conditions on the series table only, so
 * selection never scans samples; samples are read per selected id and time range. The
 * statements run in the caller's database, so tables go unqualified.
 */
import { quoteIdentifier, quoteString } from "../../../engine/Sql.js"
import { METADATA_TABLE, SAMPLES_TABLE, SERIES_TABLE } from "../../MetricsTables.js"
import { STALE_BITS } from "../../SampleBits.js"
import type { Matcher } from "../parser/Ast.js"
import type { Windows } from "./Selectors.js"

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

const selectedIds = (matchers: ReadonlyArray<Matcher>) =>
  `SELECT id FROM ${quoteIdentifier(SERIES_TABLE)} WHERE ${where(matchers)}`

/**
 * The samples of the selected series in `(from, to]`, a row per sample in `(id,
 * timestamp)` order: its series' id, its time (ms after `timesBase`, or ms as `Float64`)
 * and its value (`Float64`), read as `Native` (each column whole). The values' bytes
 * become the evaluator's typed arrays as they are (no number printed or parsed, a NaN's
 * payload, the stale marker's, kept): 13 bytes a sample (17 past 49 days), the ids as
 * `LowCardinality` (a block's distinct ids once, a byte a row where a block holds up to
 * 256 series: a day of 200 series is 15.6 MB instead of 24, and the engine wrote it in no
 * more time). The alias is not `id`, so that `ORDER BY id` stays the table's key. Rows, not a row
 * per series with its samples gathered into arrays (`groupArray`): the engine gathered them
 * in a third of the statement's time, for 8 bytes a sample less to hand over. With
 * `windows`, only the samples some step's window holds (a 1-minute rate at 1-hour steps
 * reads a sixtieth). Labels come from a second, smaller statement only for series not seen
 * before (an id names one label set for good). With `limit`, at most that many samples,
 * the first in `(id, timestamp)` order: a result of exactly `limit` samples may have been
 * cut.
 */
export const samplesSql = (
  matchers: ReadonlyArray<Matcher>,
  from: number,
  to: number,
  windows?: Windows,
  limit?: number,
  ids?: ReadonlyArray<string>
) =>
  `SELECT toLowCardinality(id) AS series, ${timeColumn(from, to)} AS t, value ` +
  `FROM ${quoteIdentifier(SAMPLES_TABLE)} WHERE ${samplesWhere(matchers, from, to, windows, ids)} ` +
  `ORDER BY id, timestamp${limit === undefined ? "" : ` LIMIT ${Math.floor(limit)}`}`

/**
 * The base that `samplesSql`'s times are counted from, in ms, when they are read as
 * `UInt32` offsets from it (4 bytes a time instead of 8: a quarter of what a read moves
 * out of the engine); `undefined` when the read spans 2^32 ms (49 days) or more, and
 * its times are read as `Float64` milliseconds. A sample in `(from, to]` is then at an
 * offset in `[1, 2^32)`, and `base + offset` is its time exactly (both integers < 2^53).
 */
export const timesBase = (from: number, to: number): number | undefined =>
  Math.floor(to) - Math.floor(from) < 2 ** 32 ? Math.floor(from) : undefined

const timeColumn = (from: number, to: number) => {
  const base = timesBase(from, to)
  return base === undefined
    ? "toFloat64(toUnixTimestamp64Milli(timestamp))"
    : `toUInt32(toUnixTimestamp64Milli(timestamp) - ${base})`
}

/** How many samples `samplesSql` would read per series: `(id UInt64, count UInt64)` rows. */
export const sampleCountsSql = (
  matchers: ReadonlyArray<Matcher>,
  from: number,
  to: number,
  windows?: Windows
) =>
  `SELECT id, count() FROM ${quoteIdentifier(SAMPLES_TABLE)} ` +
  `WHERE ${samplesWhere(matchers, from, to, windows)} GROUP BY id`

/**
 * Per selected series and window of `(from, to]` (`windows`, else the one window ending at
 * `to`), the window's end (whole ms) and its distinct sample times, all and those without
 * a stale marker: `(id UInt64, window_end Int64, samples UInt64, counted UInt64)` rows.
 * Times, not rows, are counted: a write retried before the engine merged it is in the
 * table twice until then, and a read takes the first of a repeated time once.
 */
export const windowCountsSql = (
  matchers: ReadonlyArray<Matcher>,
  from: number,
  to: number,
  windows?: Windows
) => {
  const ms = "toUnixTimestamp64Milli(timestamp)"
  const end =
    windows === undefined
      ? `toInt64(${Math.floor(to)})`
      : `toInt64(${ms} + positiveModulo(toInt64(${windows.phase}) - ${ms}, toInt64(${windows.step})))`
  return (
    `SELECT id, ${end} AS window_end, uniqExact(${ms}), ` +
    `uniqExactIf(${ms}, reinterpretAsUInt64(value) != ${STALE_BITS}) ` +
    `FROM ${quoteIdentifier(SAMPLES_TABLE)} WHERE ${samplesWhere(matchers, from, to, windows)} ` +
    `GROUP BY id, window_end`
  )
}

/** `ids`: of the series the matchers select, these only (decimal text, as counted). */
const samplesWhere = (
  matchers: ReadonlyArray<Matcher>,
  from: number,
  to: number,
  windows: Windows | undefined,
  ids?: ReadonlyArray<string>
) =>
  `id IN (${ids === undefined ? selectedIds(matchers) : idList(ids)}) ` +
  `AND timestamp > fromUnixTimestamp64Milli(toInt64(${Math.floor(from)}), 'UTC') ` +
  `AND timestamp <= fromUnixTimestamp64Milli(toInt64(${Math.floor(to)}), 'UTC')` +
  (windows === undefined
    ? ""
    : ` AND positiveModulo(toInt64(${windows.phase}) - toUnixTimestamp64Milli(timestamp), ` +
      `toInt64(${windows.step})) < ${windows.range}`)

/** Series ids (decimal text, as the engine answered them) as an `IN` list. */
const idList = (ids: ReadonlyArray<string>) => (ids.length === 0 ? "NULL" : ids.join(", "))

/** The label sets of these series ids (decimal text). */
export const labelsSql = (ids: ReadonlyArray<string>) =>
  `SELECT toString(id) AS id, any(labels) AS series_labels FROM ${quoteIdentifier(SERIES_TABLE)} ` +
  `WHERE id IN (${idList(ids)}) GROUP BY id`

/** The newest metadata of each metric family, or of one. */
export const metadataSql = (metric: string | undefined) =>
  `SELECT metric_family_name AS metric, argMax(type, updated) AS type, ` +
  `argMax(help, updated) AS help, argMax(unit, updated) AS unit ` +
  `FROM ${quoteIdentifier(METADATA_TABLE)} ` +
  (metric === undefined ? "" : `WHERE metric_family_name = ${quoteString(metric)} `) +
  `GROUP BY metric_family_name ORDER BY metric_family_name`
