/**
 * SPL searches against hand-written ClickHouse queries for the same answer, on 1 M events
 * in an in-process chDB (`spl_events` by the events layout), in one run: each pair runs
 * in interleaved rounds whose first side rotates; the figure is the ratio of medians
 * (target ≤ 1.2×). Every hand-written query answers the same rows and columns as the
 * search. Field statistics run the search service's own statements (the table's fields,
 * then the statistics over the compiled population). Then the time to compile a 6-stage
 * search (target < 1 ms).
 */
import { aliasExpression, createTableSql, QUERY_SETTINGS } from "../../src/tables/Layout.js"
import { client } from "../../src/engine/ChdbEngine.js"
import { quoteIdentifier } from "../../src/engine/Sql.js"
import { compileSearch } from "../../src/spl/compiler/Compile.js"
import {
  eventFields,
  fieldStatisticsSql,
  populationTableSpl
} from "../../src/spl/search/FieldStatistics.js"
import { populationStage } from "../../src/spl/search/StageCounts.js"

const EVENTS = 1_000_000
// Each pair runs at least this many rounds, and for at least this long: a median of 21
// rounds of a 4 ms query moved by a tenth from one run to the next.
const MIN_ROUNDS = 21
const MIN_SECONDS = 3
const T0 = Date.UTC(2026, 0, 1)
const DAY = 86_400_000

/** 1 M events a tenth of a second apart: 20 hosts, statuses, bytes, users, a message. */
const INSERT =
  "INSERT INTO default.spl_events (_time, _raw, host, source, sourcetype, index, __raw) " +
  `SELECT fromUnixTimestamp64Milli(toInt64(${T0} + number * 100), 'UTC'), ` +
  "concat(['GET', 'POST'][number % 2 + 1], ' /api/items/', toString(number % 1000), ' ', " +
  "['ok', 'upstream error: connection refused', 'timeout', 'ok'][number % 4 + 1]), " +
  "concat('web-', toString(number % 20)), 'http:bench', 'httpevent', 'main', " +
  "toJSONString(map('status', toString([200, 200, 404, 500, 503][number % 5 + 1]), " +
  "'bytes', toString(number % 5000), 'user', concat('u', toString(number % 300)))) " +
  `FROM numbers(${EVENTS})`

/** The fields get ALIAS columns as the ingest writer gives them (each has held strings). */
const FIELDS = ["bytes", "status", "user"]
const ALIASES =
  "ALTER TABLE default.spl_events " +
  FIELDS.map(
    (f) =>
      `ADD COLUMN ${quoteIdentifier(f)} Nullable(String) ALIAS ${aliasExpression(f, ["String"])}`
  ).join(", ")

const window = { earliest: T0, latest: T0 + DAY }
const inWindow = `_time >= fromUnixTimestamp64Milli(${T0}, 'UTC') AND _time < fromUnixTimestamp64Milli(${T0 + DAY}, 'UTC')`

/** Each search with a query a ClickHouse user would write for the same rows. */
const PAIRS: ReadonlyArray<readonly [name: string, spl: string, sql: string]> = [
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

/** The statistics of every field over `status>=500`, as one query over the stored columns. */
const FIELD_STATISTICS_SPL = "status>=500"
const FIELD_STATISTICS_SQL =
  "SELECT field, sum(c) AS non_null, count() AS distinct_values, groupArraySorted(5)((-c, value)) AS top, " +
  "arraySort(groupUniqArrayArray(indexes)) AS sources, min(isNotNull(toFloat64OrNull(value))) AS all_numeric, " +
  "min(lower(value) IN ('true', 'false')) AS all_boolean FROM (SELECT kv.1 AS field, kv.2 AS value, count() AS c, " +
  "groupUniqArray(toString(index)) AS indexes FROM spl_events ARRAY JOIN [('', ''), ('host', host), ('source', source), " +
  "('sourcetype', sourcetype), ('index', index), ('bytes', bytes), ('status', status), ('user', user)] AS kv " +
  `WHERE ${inWindow} AND toFloat64OrNull(status) >= 500 AND kv.2 IS NOT NULL GROUP BY field, value) GROUP BY field ORDER BY field`

const SIX_STAGES =
  "index=main status>=500 | eval kb=bytes/1024 | where kb > 1 | stats count, avg(kb) as kb by host | sort -count | head 5"

const median = (values: ReadonlyArray<number>) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!

export const spl = async () => {
  const chdb = client(":memory:")
  await chdb.command({
    query: createTableSql("default", "spl_events", "2026-01-01T00:00:00Z", "events")
  })
  const loading = performance.now()
  await chdb.command({ query: INSERT })
  console.log(`${EVENTS} events loaded in ${((performance.now() - loading) / 1000).toFixed(1)} s`)
  await chdb.command({ query: ALIASES })
  // The load's parts merge in the background for seconds after it; merged first, the
  // first pairs' rounds do not share the machine with those merges.
  await chdb.command({ query: "OPTIMIZE TABLE default.spl_events FINAL" })
  const query = async (sql: string) => {
    const result = await chdb.query({
      query: sql,
      format: "JSONEachRow",
      clickhouse_settings: QUERY_SETTINGS
    })
    return result.json<Record<string, unknown>>()
  }
  /** The search service's statements: the table's fields, then their statistics. */
  const fieldStatistics = async () => {
    const described = await query(`DESCRIBE TABLE spl_events`)
    const fields = eventFields(
      described.map((c) => ({ name: String(c["name"]), default_type: String(c["default_type"]) }))
    )
    const compiled = compileSearch(FIELD_STATISTICS_SPL, window, T0 + DAY)
    const spl = populationTableSpl(
      compiled.spl,
      compiled.stages,
      populationStage(compiled.stages),
      fields
    )
    const table = compileSearch(spl, window, T0 + DAY)
    return query(fieldStatisticsSql(table.unorderedSql, table.columns))
  }
  const searches: ReadonlyArray<
    readonly [string, () => Promise<ReadonlyArray<unknown>>, () => Promise<ReadonlyArray<unknown>>]
  > = [
    ...PAIRS.map(
      ([name, text, hand]) =>
        [name, () => query(compileSearch(text, window, T0 + DAY).sql), () => query(hand)] as const
    ),
    ["field statistics", fieldStatistics, () => query(FIELD_STATISTICS_SQL)] as const
  ]
  console.log("search                 spl ms   sql ms   ratio   rows (spl/sql)   rounds")
  for (const [name, ...sides] of searches) {
    const times: [Array<number>, Array<number>] = [[], []]
    const rows: [number, number] = [0, 0]
    for (const side of sides) await side()
    const started = performance.now()
    for (
      let round = 0;
      round < MIN_ROUNDS || performance.now() - started < MIN_SECONDS * 1000;
      round++
    )
      for (const side of round % 2 === 0 ? ([0, 1] as const) : ([1, 0] as const)) {
        const start = performance.now()
        rows[side] = (await sides[side]()).length
        times[side].push(performance.now() - start)
      }
    const [a, b] = [median(times[0]), median(times[1])]
    console.log(
      `${name.padEnd(22)} ${a.toFixed(1).padStart(7)}  ${b.toFixed(1).padStart(7)}  ${(a / b).toFixed(2).padStart(5)}×  ${`${rows[0]}/${rows[1]}`.padEnd(16)}${times[0].length}`
    )
  }
  const compiles: Array<number> = []
  for (let i = 0; i < 2_000; i++) {
    const start = performance.now()
    compileSearch(SIX_STAGES, window, T0 + DAY)
    compiles.push(performance.now() - start)
  }
  console.log(
    `compile a 6-stage search: median ${(median(compiles.slice(500)) * 1000).toFixed(0)} µs`
  )
  // The last `:memory:` session's close removes chDB's directory for it.
  await chdb.close()
}
