/**
 * `/v1/tables`: list, describe and drop tables (`Tables`), and insert into them, created
 * on first insert. The insert is the HTTP side of `IngestWriter`, `TransformedIngest`
 * and `UrlIngest`, which is why this group lives with ingest: the body by its content
 * type and encoding, the token from the parameter or `idempotency-key`, the outcome as
 * the response.
 */
import { HttpApiBuilder, HttpServerResponse } from "@effect/platform"
import { Effect } from "effect"
import { SluiceApi } from "../../domain/Api.js"
import { BadRequest } from "../../domain/Errors.js"
import type { DatabaseName } from "../../domain/Ids.js"
import { IngestWriter } from "../../domain/IngestWriter.js"
import { Tables } from "../../domain/Tables.js"
import { TransformedIngest } from "../../domain/TransformedIngest.js"
import type { TransformOutcome } from "../../domain/TransformedIngest.js"
import { UrlIngest } from "../../domain/UrlIngest.js"
import type { ClusterScope } from "../../domain/Authorization.js"
import { SluiceConfig } from "../config/SluiceConfig.js"
import { requestScopes } from "../http/RequestScope.js"
import { recordsBody } from "./http/RecordsBody.js"
import { transformPayload } from "./http/TransformBody.js"
import { urlInsert } from "./http/UrlInsert.js"
import { insertBodyRules } from "./InsertBody.js"

const transformResponse = (outcome: TransformOutcome) =>
  HttpServerResponse.unsafeJson(
    outcome._tag === "Acknowledged"
      ? { requestId: outcome.requestId, timestamp: outcome.timestamp }
      : outcome.rejected === 0
        ? { inserted: outcome.inserted }
        : { inserted: outcome.inserted, rejected: outcome.rejected, message: outcome.message }
  )

/** Where a table is, as the responses name it. */
const refs = (scope: ClusterScope, database: DatabaseName) => ({
  database: { name: database },
  project: { name: database },
  organization: { name: scope.organizationName }
})

export const TablesHttpLive = HttpApiBuilder.group(SluiceApi, "tables", (handlers) =>
  Effect.gen(function* () {
    const scopes = yield* requestScopes
    const tables = yield* Tables
    const writer = yield* IngestWriter
    const transformed = yield* TransformedIngest
    const urlIngest = yield* UrlIngest
    const rules = insertBodyRules((yield* SluiceConfig).maxInsertBytes)

    return handlers
      .handle("list", ({ urlParams }) =>
        Effect.gen(function* () {
          const { scope, database } = yield* scopes.dataScope("read", urlParams)
          return { tables: yield* tables.list(scope, database), ...refs(scope, database) }
        })
      )
      .handle("describe", ({ path, urlParams }) =>
        Effect.gen(function* () {
          const { scope, database } = yield* scopes.dataScope("read", urlParams)
          const table = yield* tables.describe(scope, database, path.table)
          return { ...table, table, ...refs(scope, database) }
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
          const { scope, database } = yield* scopes.dataScope("delete_table", urlParams)
          yield* tables.drop(scope, database, path.table)
          return { deleted: true as const }
        })
      )
  })
)
