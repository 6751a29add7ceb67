/** `POST /v1/query` and `POST /v1/query/cancel` (decisions.md §7). */
import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { SluiceApi } from "../../domain/Api.js"
import { Engines } from "../../domain/Engine.js"
import { engineAccessError } from "../clusters/EngineAccess.js"
import { SluiceConfig } from "../config/SluiceConfig.js"
import { engineDatabase } from "../databases/EngineDatabase.js"
import { selectDatabase } from "../databases/DatabaseSelection.js"
import { Policy } from "../identity/Policy.js"
import { makeHints } from "./Hints.js"
import { runQuery } from "./QueryRun.js"
import { RunningQueries } from "./RunningQueries.js"

export const QueryHttpLive = HttpApiBuilder.group(SluiceApi, "query", (handlers) =>
  Effect.gen(function* () {
    const policy = yield* Policy
    const engines = yield* Engines
    const running = yield* RunningQueries
    const config = yield* SluiceConfig
    const hintsOf = makeHints()
    const limits = {
      maxSqlBytes: config.queryMaxSqlBytes,
      timeoutSeconds: config.queryTimeoutSeconds,
      maxResultBytes: config.queryMaxResultBytes
    }

    const resolve = Effect.fnUntraced(function* (urlParams: {
      readonly organization?: string | undefined
      readonly cluster?: string | undefined
      readonly database?: string | undefined
    }) {
      const cluster = yield* policy.clusterScope("query", urlParams)
      const database = yield* selectDatabase(cluster, urlParams.database)
      return { cluster, scope: { ...cluster, database } }
    })

    // No span of their own: the request's span (named by its route) covers each, and the
    // engine call inside has its own.
    return handlers
      .handle("query", ({ payload, urlParams }) =>
        Effect.gen(function* () {
          const { cluster, scope } = yield* resolve(urlParams)
          const engine = yield* engines
            .forCluster(cluster.clusterId)
            .pipe(Effect.mapError(engineAccessError))
          const engineDb = engineDatabase(engine, scope.database)
          return yield* runQuery({
            engine,
            running,
            scope,
            engineDatabase: engineDb,
            limits,
            sql: payload.sql,
            format: payload.format,
            queryId: payload.query_id ?? crypto.randomUUID(),
            hints: hintsOf({
              engine,
              clusterId: cluster.clusterId,
              database: scope.database,
              engineDatabase: engineDb,
              sql: payload.sql
            })
          })
        })
      )
      .handle("cancel", ({ payload, urlParams }) =>
        Effect.gen(function* () {
          const { scope } = yield* resolve(urlParams)
          yield* running.cancel(scope, payload.query_id)
          return { cancelled: true as const }
        })
      )
  })
)
