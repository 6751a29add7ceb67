/**
 * SPL searches against hand-written ClickHouse queries for the same answer, on 1 M events
 * in an in-process chDB (`spl_events` by the events layout), in one run: each pair runs
 * in interleaved rounds whose first side rotates; the figure is the ratio of medians
 * (target ≤ 1.2×). Then the time to compile a 6-stage search (target < 1 ms). Field
 * statistics belong to the search service, not the compiler, and are not timed here.
 */
import { createTableSql, QUERY_SETTINGS } from "../../src/tables/Layout.js"
import { client } from "../../src/engine/ChdbEngine.js"
import { compileSearch } from "../../src/spl/Compile.js"

const EVENTS = 1_000_000
const ROUNDS = 11
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
    // The top 10 hosts by count, the rest as OTHER (every hour holds every host: no gaps to fill).
    `SELECT toStartOfHour(_time) AS t, if(host IN (SELECT host FROM spl_events WHERE ${inWindow} GROUP BY host ORDER BY count() DESC, host LIMIT 10), host, 'OTHER') AS series, count() AS count FROM spl_events WHERE ${inWindow} GROUP BY t, series ORDER BY t, series`
  ],
  [
    "dedup + sort + head",
    "| dedup user | sort -bytes | head 20",
    `SELECT user, bytes FROM (SELECT __raw_data.user::String AS user, toFloat64OrNull(__raw_data.bytes::String) AS bytes, _time FROM spl_events WHERE ${inWindow} ORDER BY _time DESC LIMIT 1 BY user) ORDER BY bytes DESC LIMIT 20`
  ],
  [
    "phrase search",
    '"connection refused" | head 100',
    `SELECT _time, _raw FROM spl_events WHERE ${inWindow} AND positionCaseInsensitive(_raw, 'connection refused') > 0 ORDER BY _time DESC LIMIT 100`
  ],
  [
    "where/eval pipeline",
    '| eval kb=bytes/1024, slow=if(status>=500, "yes", "no") | where kb > 4 AND slow="yes" | stats avg(kb) as kb by host',
    `SELECT host, avg(toFloat64OrNull(__raw_data.bytes::String) / 1024) AS kb FROM spl_events WHERE ${inWindow} AND toFloat64OrNull(__raw_data.bytes::String) / 1024 > 4 AND toFloat64OrNull(__raw_data.status::String) >= 500 GROUP BY host ORDER BY host`
  ]
]

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
  const run = async (sql: string) => {
    const start = performance.now()
    const result = await chdb.query({
      query: sql,
      format: "JSONEachRow",
      clickhouse_settings: QUERY_SETTINGS
    })
    const rows = (await result.json()).length
    return { ms: performance.now() - start, rows }
  }
  console.log("search                 spl ms   sql ms   ratio   rows (spl/sql)")
  for (const [name, text, hand] of PAIRS) {
    const compiled = compileSearch(text, window, T0 + DAY).sql
    const sides = [compiled, hand]
    const times: [Array<number>, Array<number>] = [[], []]
    const rows: [number, number] = [0, 0]
    await run(compiled)
    await run(hand)
    for (let round = 0; round < ROUNDS; round++)
      for (const side of round % 2 === 0 ? [0, 1] : [1, 0]) {
        const { ms, rows: n } = await run(sides[side]!)
        times[side as 0 | 1].push(ms)
        rows[side as 0 | 1] = n
      }
    const [a, b] = [median(times[0]), median(times[1])]
    console.log(
      `${name.padEnd(22)} ${a.toFixed(1).padStart(7)}  ${b.toFixed(1).padStart(7)}  ${(a / b).toFixed(2).padStart(5)}×  ${rows[0]}/${rows[1]}`
    )
  }
  console.log("field statistics: not timed here (the search service computes them)")
  const compiles: Array<number> = []
  for (let i = 0; i < 2_000; i++) {
    const start = performance.now()
    compileSearch(SIX_STAGES, window, T0 + DAY)
    compiles.push(performance.now() - start)
  }
  console.log(
    `compile a 6-stage search: median ${(median(compiles.slice(500)) * 1000).toFixed(0)} µs`
  )
}
