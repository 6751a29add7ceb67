/** `/v1/tables`: list, describe, insert into (created on first insert) and drop tables. */
import { HttpApiBuilder } from "@effect/platform"
import { Effect, Option } from "effect"
import { requestScopes } from "../http/RequestScope.js"
import { SluiceApi } from "../../domain/Api.js"
import { Engines } from "../../domain/Engine.js"
import type { AnalyticalEngine } from "../../domain/Engine.js"
import { NotFound } from "../../domain/Errors.js"
import { engineAccessError } from "../engine/EngineAccess.js"
import { SluiceConfig } from "../config/SluiceConfig.js"
import { engineDatabase } from "../databases/EngineDatabase.js"
import type { DataAction } from "../../domain/Authorization.js"
import { insertFromBody } from "../ingest/InsertHandler.js"
import * as InsertTokens from "../ingest/InsertTokens.js"
import { TableLocks } from "../ingest/TableLocks.js"
import { UrlIngest } from "../ingest/UrlIngest.js"
import { SchemalessTables } from "./SchemalessTables.js"

const unknownTable = (table: string, database: string, existing: ReadonlyArray<string>) =>
  new NotFound({
    message: `Table '${table}' not found in database '${database}'.`,
    hint:
      existing.length === 0
        ? "The database has no tables yet; POST records to /v1/tables/{table} to create one."
        : `Tables in '${database}': ${existing.join(", ")}.`
  })

export const TablesHttpLive = HttpApiBuilder.group(SluiceApi, "tables", (handlers) =>
  Effect.gen(function* () {
    const scopes = yield* requestScopes
    const engines = yield* Engines
    const tables = yield* SchemalessTables
    const locks = yield* TableLocks
    const urlIngest = yield* UrlIngest
    const { maxInsertBytes } = yield* SluiceConfig

    /** The caller's scope, database and engine for `action`. */
    const target = (
      action: DataAction,
      params: {
        readonly organization?: string | undefined
        readonly cluster?: string | undefined
        readonly database?: string | undefined
      }
    ) =>
      Effect.gen(function* () {
        const { scope, database } = yield* scopes.dataScope(action, params)
        const engine: AnalyticalEngine = yield* engines
          .forCluster(scope.clusterId)
          .pipe(Effect.mapError(engineAccessError))
        return {
          engine,
          database,
          queryScope: {
            organizationId: scope.organizationId,
            clusterId: scope.clusterId,
            database
          },
          engineName: engineDatabase(engine, database),
          refs: { database: { name: database }, organization: { name: scope.organizationName } }
        }
      })

    const describeOrNotFound = (
      engine: AnalyticalEngine,
      engineName: string,
      database: string,
      table: string
    ) =>
      Effect.flatMap(Effect.orDie(tables.describe(engine, engineName, table)), (found) =>
        Option.match(found, {
          onSome: Effect.succeed,
          onNone: () =>
            Effect.flatMap(Effect.orDie(tables.list(engine, engineName)), (all) =>
              Effect.fail(
                unknownTable(
                  table,
                  database,
                  all.map((t) => t.name)
                )
              )
            )
        })
      )

    return handlers
      .handle("list", ({ urlParams }) =>
        Effect.gen(function* () {
          const t = yield* target("read", urlParams)
          const all = yield* Effect.orDie(tables.list(t.engine, t.engineName))
          return { tables: all, ...t.refs }
        })
      )
      .handle("describe", ({ path, urlParams }) =>
        Effect.gen(function* () {
          const t = yield* target("read", urlParams)
          const table = yield* describeOrNotFound(t.engine, t.engineName, t.database, path.table)
          return { table, ...t.refs }
        })
      )
      .handleRaw("insert", ({ path, urlParams, request }) =>
        Effect.gen(function* () {
          const t = yield* target("insert", urlParams)
          if (urlParams.url !== undefined) {
            return yield* urlIngest.insert({
              engine: t.engine,
              database: t.engineName,
              table: path.table,
              url: urlParams.url,
              transform: urlParams.transform,
              token: urlParams.insert_deduplication_token ?? request.headers["idempotency-key"],
              request,
              scope: t.queryScope
            })
          }
          return yield* insertFromBody({
            engine: t.engine,
            database: t.engineName,
            table: path.table,
            params: urlParams,
            request,
            maxInsertBytes
          })
        }).pipe(
          Effect.provideService(SchemalessTables, tables),
          Effect.provideService(TableLocks, locks)
        )
      )
      .handle("delete", ({ path, urlParams }) =>
        Effect.gen(function* () {
          const t = yield* target("delete_table", urlParams)
          yield* describeOrNotFound(t.engine, t.engineName, t.database, path.table)
          yield* locks.withTable(
            t.engineName,
            path.table
          )(
            Effect.orDie(
              Effect.zipRight(
                tables.drop(t.engine, t.engineName, path.table),
                InsertTokens.forget(t.engine, t.engineName, path.table)
              )
            )
          )
          return { deleted: true as const }
        })
      )
  })
)
