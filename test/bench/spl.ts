/**
 * SPL searches against hand-written ClickHouse queries for the same answer, on 1 M events
 * in an in-process chDB (`spl_events` by the events layout), in one run: each pair runs
 * in interleaved rounds whose first side rotates; the figure is the ratio of medians
 * (target ≤ 1.2×). Every hand-written query answers the same rows and columns as the
 * search. Field statistics run the search service's own statements (the table's fields,
 * then the statistics over the compiled population). Then the time to compile a 6-stage
 * search (target < 1 ms). Last, the same searches through the search service
 * (splService.ts).
 */
import { createTableSql, QUERY_SETTINGS } from "../../src/tables/Layout.js"
import { client } from "../../src/engine/ChdbEngine.js"
import { compileSearch, compileTable } from "../../src/spl/compiler/Compile.js"
import { eventFields, fieldStatisticsSql, METADATA } from "../../src/spl/search/FieldStatistics.js"
import { populationStage } from "../../src/spl/search/StageCounts.js"
import {
  aliasesSql,
  DAY,
  EVENTS,
  FIELD_STATISTICS_SPL,
  FIELD_STATISTICS_SQL,
  insertSql,
  median,
  PAIRS,
  SIX_STAGES,
  T0,
  window
} from "./splData.js"
import { splService } from "./splService.js"

// Each pair runs at least this many rounds, and for at least this long: a median of 21
// rounds of a 4 ms query moved by a tenth from one run to the next.
const MIN_ROUNDS = 21
const MIN_SECONDS = 3

export const spl = async () => {
  const chdb = client(":memory:")
  await chdb.command({
    query: createTableSql("default", "spl_events", "2026-01-01T00:00:00Z", "events")
  })
  const loading = performance.now()
  await chdb.command({ query: insertSql("default") })
  console.log(`${EVENTS} events loaded in ${((performance.now() - loading) / 1000).toFixed(1)} s`)
  await chdb.command({ query: aliasesSql("default") })
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
    const table = compileTable(
      compiled.spl,
      window,
      T0 + DAY,
      [],
      populationStage(compiled.stages),
      [...METADATA, ...fields]
    )
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
  await splService()
}
