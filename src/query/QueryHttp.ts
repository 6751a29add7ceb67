/** `POST /v1/query` and `POST /v1/query/cancel` (decisions.md §7). */
import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { SluiceApi } from "../../domain/Api.js"
import { Engines } from "../../domain/Engine.js"
import { Unavailable } from "../../domain/Errors.js"
import { SluiceConfig } from "../config/SluiceConfig.js"
import { engineDatabase } from "../databases/EngineDatabase.js"
import { selectDatabase } from "../databases/DatabaseSelection.js"
import { Policy } from "../identity/Policy.js"
import { runQuery } from "./QueryRun.js"
import { RunningQueries } from "./RunningQueries.js"

export const QueryHttpLive = HttpApiBuilder.group(SluiceApi, "query", (handlers) =>
  Effect.gen(function* () {
    const policy = yield* Policy
    const engines = yield* Engines
    const running = yield* RunningQueries
    const config = yield* SluiceConfig
    const limits = {
      maxSqlBytes: config.queryMaxSqlBytes,
      timeoutSeconds: config.queryTimeoutSeconds,
      maxResultBytes: config.queryMaxResultBytes
    }

    const resolve = Effect.fn("Query.scope")(function* (urlParams: {
      readonly organization?: string | undefined
      readonly cluster?: string | undefined
      readonly database?: string | undefined
    }) {
      const cluster = yield* policy.clusterScope("query", urlParams)
      const database = yield* selectDatabase(cluster, urlParams.database)
      return { cluster, scope: { ...cluster, database } }
    })

    return handlers
      .handle("query", ({ payload, urlParams }) =>
        Effect.gen(function* () {
          const { cluster, scope } = yield* resolve(urlParams)
          const engine = yield* engines
            .forCluster(cluster.clusterId)
            .pipe(
              Effect.mapError(
                (e) => new Unavailable({ message: e.message, hint: "Retry shortly." })
              )
            )
          return yield* runQuery({
            engine,
            running,
            scope,
            engineDatabase: engineDatabase(cluster, scope.database),
            limits,
            sql: payload.sql,
            format: payload.format,
            queryId: payload.query_id ?? crypto.randomUUID()
          })
        }).pipe(Effect.withSpan("Query.run"))
      )
      .handle("cancel", ({ payload, urlParams }) =>
        Effect.gen(function* () {
          const { scope } = yield* resolve(urlParams)
          yield* running.cancel(scope, payload.query_id)
          return { cancelled: true as const }
        }).pipe(Effect.withSpan("Query.cancel"))
      )
  })
)
