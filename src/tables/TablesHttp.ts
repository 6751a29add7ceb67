/**
 * `/v1/tables`: list, describe, insert into (created on first insert) and drop tables.
 * An insert is the HTTP side of `IngestWriter`, `TransformedIngest` and `UrlIngest`: the
 * body by its content type and encoding, the token from the parameter or
 * `idempotency-key`, the outcome as the response.
 */
import { HttpApiBuilder, HttpServerResponse } from "@effect/platform"
import { Effect, Option } from "effect"
import { requestScopes } from "../http/RequestScope.js"
import { SluiceApi } from "../../domain/Api.js"
import { Engines } from "../../domain/Engine.js"
import type { AnalyticalEngine } from "../../domain/Engine.js"
import { BadRequest, NotFound } from "../../domain/Errors.js"
import { IngestWriter } from "../../domain/IngestWriter.js"
import { TransformedIngest } from "../../domain/TransformedIngest.js"
import type { TransformOutcome } from "../../domain/TransformedIngest.js"
import { UrlIngest } from "../../domain/UrlIngest.js"
import { engineAccessError } from "../engine/EngineAccess.js"
import { SluiceConfig } from "../config/SluiceConfig.js"
import { engineDatabase } from "../databases/EngineDatabase.js"
import type { DataAction } from "../../domain/Authorization.js"
import { recordsBody } from "./http/RecordsBody.js"
import { transformPayload } from "./http/TransformBody.js"
import { urlInsert } from "./http/UrlInsert.js"
import { insertBodyRules } from "./InsertBody.js"
import * as InsertTokens from "./InsertTokens.js"
import { SchemalessTables } from "./SchemalessTables.js"
import { TableLocks } from "./TableLocks.js"

const transformResponse = (outcome: TransformOutcome) =>
  HttpServerResponse.unsafeJson(
    outcome._tag === "Acknowledged"
      ? { requestId: outcome.requestId, timestamp: outcome.timestamp }
      : outcome.rejected === 0
        ? { inserted: outcome.inserted }
        : { inserted: outcome.inserted, rejected: outcome.rejected, message: outcome.message }
  )

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
    const writer = yield* IngestWriter
    const transformed = yield* TransformedIngest
    const urlIngest = yield* UrlIngest
    const rules = insertBodyRules((yield* SluiceConfig).maxInsertBytes)

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
          engineName: engineDatabase(engine, database),
          refs: {
            database: { name: database },
            project: { name: database },
            organization: { name: scope.organizationName }
          }
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
          return { ...table, table, ...t.refs }
        })
      )
      .handleRaw("insert", ({ path, urlParams, request }) =>
        Effect.gen(function* () {
          const { scope, database } = yield* scopes.dataScope("insert", urlParams)
          const token = urlParams.insert_deduplication_token ?? request.headers["idempotency-key"]
          if (urlParams.columns !== undefined && urlParams.transform !== "delivery-stream")
            return yield* new BadRequest({
              message: "columns names the columns of delivery-stream records only.",
              hint: "Use columns with transform=delivery-stream, or leave it out."
            })
          if (urlParams.url !== undefined) {
            return yield* urlInsert(urlIngest, request, {
              scope,
              database,
              table: path.table,
              url: urlParams.url,
              transform: urlParams.transform,
              token
            })
          }
          if (urlParams.transform !== undefined) {
            const payload = yield* transformPayload(
              request,
              urlParams.transform,
              token,
              rules,
              urlParams.columns
            )
            return transformResponse(
              yield* transformed.insert(scope, database, path.table, payload)
            )
          }
          const records = yield* recordsBody(request, token, rules)
          const outcome = yield* writer.insertRecords(scope, database, path.table, records)
          return HttpServerResponse.unsafeJson(outcome)
        })
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
