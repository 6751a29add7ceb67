/**
 * The events layout (`spl_events`): a schemaless table (Layout.ts) with
 * the event's time, text and metadata as real columns, ordered by `_time`:
 *
 *   CREATE TABLE db.spl_events (__raw JSON EPHEMERAL, __raw_data JSON MATERIALIZED __raw,
 *     _time DateTime64(3, 'UTC'), _raw String, host LowCardinality(String), source …,
 *     sourcetype …, index …) ENGINE = MergeTree ORDER BY _time
 *
 * Rows are sent as `RowBinary` naming the typed columns and `__raw` (the fields' JSON
 * text, src/ingest/EventRows.ts), so the fields get ALIAS columns by the same leaf-path
 * machinery as any schemaless table, and the typed columns never are leaf paths. `_time`
 * goes as integer milliseconds, which the engine reads as `DateTime64(3)` ticks whatever
 * its time zone.
 *
 * Deriving the typed columns inside the engine (`DEFAULT` expressions over the ephemeral
 * JSON, `JSON(SKIP …)`) made inserts much slower than a plain schemaless table; sending
 * them as columns is on par with it. Against a plain schemaless table holding `_time` as
 * a JSON path, `ORDER BY _time` answers a one-hour count and the newest events faster. No
 * partition key: the body insert publishes with `ATTACH PARTITION tuple() FROM` a staging
 * table of this same layout.
 */
import { quoteIdentifier } from "../engine/Sql.js"

/** The typed columns in the order the rows name them, with their engine types. */
export const EVENT_COLUMNS = [
  ["_time", "DateTime64(3, 'UTC')"],
  ["_raw", "String"],
  ["host", "LowCardinality(String)"],
  ["source", "LowCardinality(String)"],
  ["sourcetype", "LowCardinality(String)"],
  ["index", "LowCardinality(String)"]
] as const

export const EVENT_ORDER_BY = quoteIdentifier("_time")

export const eventColumnsSql = EVENT_COLUMNS.map(
  ([name, type]) => `${quoteIdentifier(name)} ${type}`
).join(", ")

export const EVENT_INSERT_FORMAT = "RowBinary"

/** The fields arrive as their JSON text, which the engine parses into the JSON column. */
export const EVENT_INSERT_SETTINGS = { input_format_binary_read_json_as_string: 1 }
