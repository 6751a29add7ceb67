/**
 * SPL searches as a request meets them: `SplSearch.search` (the compiler, then every
 * statement of the search: result, stage counts with the timeline, field statistics,
 * and the rows decoded into the answer)
 * on the in-memory composition (layers/Test.ts, chDB in this process), against the
 * hand-written query for the same rows run straight on the cluster's engine, in
 * interleaved rounds. The service runs two to four statements where the query is one,
 * so the ratio is above 1 by design: what it measures is the search path's own cost,
 * compared between runs of the same machine.
 */
import { Effect, Layer } from "effect"
import { AppIds } from "../../domain/AppIds.js"
import { AppRegistry } from "../../domain/AppRegistry.js"
import { Authorization } from "../../domain/Authorization.js"
import { CommandRequest, Engines, EngineQuery } from "../../domain/Engine.js"
import { DatabaseName } from "../../domain/Ids.js"
import { SplSearch, SplSearchQuery } from "../../domain/SplSearch.js"
import { InMemoryLive } from "../../layers/Test.js"
import { engineDatabase } from "../../src/databases/EngineDatabase.js"
import { createTableSql, QUERY_SETTINGS } from "../../src/tables/Layout.js"
import { adminKeyCaller } from "../support/inMemory.js"
import {
  aliasesSql,
  FIELD_STATISTICS_SPL,
  FIELD_STATISTICS_SQL,
  insertSql,
  MANY_ROWS,
  median,
  PAIRS,
  window
} from "./splData.js"

const MIN_ROUNDS = 11
const MIN_SECONDS = 3

export const splService = () =>
  Effect.runPromise(
    Effect.scoped(
      Effect.gen(function* () {
        const context = yield* Layer.build(InMemoryLive())
        return yield* Effect.gen(function* () {
          const admin = yield* adminKeyCaller
          const scope = yield* (yield* Authorization).clusterScope(admin, "query", {})
          yield* (yield* AppRegistry).install(scope.clusterId, AppIds.spl)
          const engine = yield* (yield* Engines).forCluster(scope.clusterId)
          const database = engineDatabase(engine, "default")
          const command = (sql: string) =>
            engine.command(new CommandRequest({ sql, settings: { max_execution_time: 0 } }))
          yield* command(`DROP TABLE IF EXISTS ${database}.spl_events`)
          yield* command(createTableSql(database, "spl_events", "2026-01-01T00:00:00Z", "events"))
          const loading = performance.now()
          yield* command(insertSql(database))
          console.log(
            `service: events loaded in ${((performance.now() - loading) / 1000).toFixed(1)} s`
          )
          yield* command(aliasesSql(database))
          yield* command(`OPTIMIZE TABLE ${database}.spl_events FINAL`)

          const spl = yield* SplSearch
          const search = (text: string, includeFieldStatistics: boolean) =>
            Effect.map(
              spl.search(
                scope,
                DatabaseName.make("default"),
                new SplSearchQuery({
                  spl: text,
                  earliest: String(window.earliest / 1000),
                  latest: String(window.latest / 1000),
                  includeFieldStatistics,
                  explain: false,
                  queryId: crypto.randomUUID()
                })
              ),
              (result) => result.rows
            )
          const hand = (sql: string) =>
            Effect.map(
              engine.queryWhole(
                new EngineQuery({
                  sql,
                  format: "JSON",
                  queryId: crypto.randomUUID(),
                  database,
                  settings: { ...QUERY_SETTINGS, readonly: 1 }
                }),
                1024 * 1024 * 1024
              ),
              (bytes) => (JSON.parse(Buffer.from(bytes).toString("utf8")) as { rows: number }).rows
            )
          const sides: ReadonlyArray<
            readonly [string, Effect.Effect<number, unknown>, Effect.Effect<number, unknown>]
          > = [
            // The searches whose engine time leaves the path's own cost visible.
            ...[PAIRS[0]!, PAIRS[3]!, MANY_ROWS].map(
              ([name, text, sql]) => [name, search(text, false), hand(sql)] as const
            ),
            [
              "field statistics",
              search(FIELD_STATISTICS_SPL, true),
              hand(FIELD_STATISTICS_SQL)
            ] as const
          ]
          console.log("search (service)       svc ms   sql ms   ratio   rounds")
          for (const [name, ...pair] of sides) {
            const times: [Array<number>, Array<number>] = [[], []]
            for (const side of pair) yield* side
            const started = performance.now()
            for (
              let round = 0;
              round < MIN_ROUNDS || performance.now() - started < MIN_SECONDS * 1000;
              round++
            )
              for (const side of round % 2 === 0 ? ([0, 1] as const) : ([1, 0] as const)) {
                const start = performance.now()
                yield* pair[side]
                times[side].push(performance.now() - start)
              }
            const [a, b] = [median(times[0]), median(times[1])]
            console.log(
              `${name.padEnd(22)} ${a.toFixed(1).padStart(7)}  ${b.toFixed(1).padStart(7)}  ${(a / b).toFixed(2).padStart(5)}×  ${times[0].length}`
            )
          }
        }).pipe(Effect.provide(context))
      })
    )
  )
