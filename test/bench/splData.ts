/** The events, searches and hand-written queries the SPL benchmarks share. */
import { aliasExpression } from "../../src/tables/Layout.js"
import { quoteIdentifier } from "../../src/engine/Sql.js"

export const EVENTS = 1_000_000
export const T0 = Date.UTC(2026, 0, 1)
export const DAY = 86_400_000

/** 1 M events a tenth of a second apart: 20 hosts, statuses, bytes, users, a message. */
export const insertSql = (database: string) =>
  `INSERT INTO ${database}.spl_events (_time, _raw, host, source, sourcetype, index, __raw) ` +
  `SELECT fromUnixTimestamp64Milli(toInt64(${T0} + number * 100), 'UTC'), ` +
  "concat(['GET', 'POST'][number % 2 + 1], ' /api/items/', toString(number % 1000), ' ', " +
  "['ok', 'upstream error: connection refused', 'timeout', 'ok'][number % 4 + 1]), " +
  "concat('web-', toString(number % 20)), 'http:bench', 'httpevent', 'main', " +
  "toJSONString(map('status', toString([200, 200, 404, 500, 503][number % 5 + 1]), " +
  "'bytes', toString(number % 5000), 'user', concat('u', toString(number % 300)))) " +
  `FROM numbers(${EVENTS})`

/** The fields get ALIAS columns as the ingest writer gives them (each has held strings). */
const FIELDS = ["bytes", "status", "user"]
export const aliasesSql = (database: string) =>
  `ALTER TABLE ${database}.spl_events ` +
  FIELDS.map(
    (f) =>
      `ADD COLUMN ${quoteIdentifier(f)} Nullable(String) ALIAS ${aliasExpression(f, ["String"])}`
  ).join(", ")

export const window = { earliest: T0, latest: T0 + DAY }
const inWindow = `_time >= fromUnixTimestamp64Milli(${T0}, 'UTC') AND _time < fromUnixTimestamp64Milli(${T0 + DAY}, 'UTC')`

/** Each search with a query a ClickHouse user would write for the same rows. */
export const PAIRS: ReadonlyArray<readonly [name: string, spl: string, sql: string]> = [
  [
    "filter + stats by",
    "status>=500 | stats count by host",
    `SELECT host, count() AS count FROM spl_events WHERE ${inWindow} AND toFloat64OrNull(__raw_data.status::String) >= 500 GROUP BY host ORDER BY host`
  ],
  [
    "timechart with split",
    "| timechart span=1h count by host",
    // The top 10 hosts by count (ties by name), the rest as OTHER, every hour of the
    // window for every series (zero-filled), OTHER after the named series.
    `SELECT t AS _time, series AS host, count FROM (SELECT toStartOfHour(_time) AS t, ` +
      `if(host IN (SELECT host FROM spl_events WHERE ${inWindow} GROUP BY host ORDER BY count() DESC, host LIMIT 10), host, 'OTHER') AS series, ` +
      `toFloat64(count()) AS count FROM spl_events WHERE ${inWindow} GROUP BY t, series ` +
      `ORDER BY series = 'OTHER', series, t WITH FILL FROM toDateTime(${T0 / 1000}, 'UTC') TO toDateTime(${(T0 + DAY) / 1000}, 'UTC') STEP INTERVAL 1 HOUR) ` +
      `ORDER BY _time, series = 'OTHER', host`
  ],
  [
    "dedup + sort + head",
    "| dedup user | sort -bytes | head 20",
    // The newest event of each user, the 20 with most bytes (missing last), as events.
    `SELECT _time, _raw, host, source, sourcetype, index FROM (SELECT _time, _raw, host, source, sourcetype, index, ` +
      `toFloat64OrNull(__raw_data.bytes::String) AS bytes FROM spl_events WHERE ${inWindow} AND __raw_data.user IS NOT NULL ` +
      `ORDER BY _time DESC LIMIT 1 BY __raw_data.user::String) ORDER BY isNull(bytes), bytes DESC, _time DESC LIMIT 20`
  ],
  [
    "phrase search",
    '"connection refused" | head 100',
    `SELECT _time, _raw, host, source, sourcetype, index FROM spl_events WHERE ${inWindow} AND positionCaseInsensitive(_raw, 'connection refused') > 0 ORDER BY _time DESC LIMIT 100`
  ],
  [
    "where/eval pipeline",
    '| eval kb=bytes/1024, slow=if(status>=500, "yes", "no") | where kb > 4 AND slow="yes" | stats avg(kb) as kb by host',
    `SELECT host, avg(toFloat64OrNull(__raw_data.bytes::String) / 1024) AS kb FROM spl_events WHERE ${inWindow} AND toFloat64OrNull(__raw_data.bytes::String) / 1024 > 4 AND toFloat64OrNull(__raw_data.status::String) >= 500 GROUP BY host ORDER BY host`
  ]
]

/** A search whose rows outweigh its engine time: what the search path costs per row. */
export const MANY_ROWS = [
  "10,000 events",
  "| head 10000",
  `SELECT _time, _raw, host, source, sourcetype, index FROM spl_events WHERE ${inWindow} ORDER BY _time DESC LIMIT 10000`
] as const

/** The statistics of every field over `status>=500`, as one query over the stored columns. */
export const FIELD_STATISTICS_SPL = "status>=500"
export const FIELD_STATISTICS_SQL =
  "SELECT field, sum(c) AS non_null, count() AS distinct_values, groupArraySorted(5)((-c, value)) AS top, " +
  "arraySort(groupUniqArrayArray(indexes)) AS sources, min(isNotNull(toFloat64OrNull(value))) AS all_numeric, " +
  "min(lower(value) IN ('true', 'false')) AS all_boolean FROM (SELECT kv.1 AS field, kv.2 AS value, count() AS c, " +
  "groupUniqArray(toString(index)) AS indexes FROM spl_events ARRAY JOIN [('', ''), ('host', host), ('source', source), " +
  "('sourcetype', sourcetype), ('index', index), ('bytes', bytes), ('status', status), ('user', user)] AS kv " +
  `WHERE ${inWindow} AND toFloat64OrNull(status) >= 500 AND kv.2 IS NOT NULL GROUP BY field, value) GROUP BY field ORDER BY field`

export const SIX_STAGES =
  "index=main status>=500 | eval kb=bytes/1024 | where kb > 1 | stats count, avg(kb) as kb by host | sort -count | head 5"

export const median = (values: ReadonlyArray<number>) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!
