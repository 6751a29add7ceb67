import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { ErrorWire } from "../Errors.js"
import { Authentication } from "../Identity.js"
import { DataScopeParams } from "./Scope.js"

/** Result formats of `POST /v1/query`; only `JSON` has a schema, the rest are raw. */
export const QueryFormat = Schema.Literal(
  "JSON",
  "JSONEachRow",
  "JSONEachRowWithProgress",
  "JSONCompact",
  "CSV",
  "CSVWithNames",
  "TSV",
  "TSVWithNames",
  "TabSeparated"
)
export type QueryFormat = typeof QueryFormat.Type

/** A query's id: returned in a header, so visible ASCII only. */
export const QueryId = Schema.String.pipe(
  Schema.pattern(/^[\x21-\x7e]{1,128}$/, {
    message: () => "a query id is 1 to 128 visible ASCII characters"
  })
)

export class QueryRequest extends Schema.Class<QueryRequest>("QueryRequest")({
  sql: Schema.String,
  format: Schema.optionalWith(QueryFormat, { default: () => "JSON" }),
  /** Chosen by the client so that it can cancel the query. */
  query_id: Schema.optional(QueryId)
}) {}

export class ColumnMeta extends Schema.Class<ColumnMeta>("ColumnMeta")({
  name: Schema.String,
  type: Schema.String
}) {}

export class QueryStatistics extends Schema.Class<QueryStatistics>("QueryStatistics")({
  /** Seconds. */
  elapsed: Schema.Number,
  rows_read: Schema.Int,
  bytes_read: Schema.Int
}) {}

/** The fields every JSON result shares, SQL and SPL alike. */
export const resultFields = {
  meta: Schema.Array(ColumnMeta),
  data: Schema.Array(Schema.Record({ key: Schema.String, value: Schema.Unknown })),
  rows: Schema.Int,
  statistics: QueryStatistics
}

export class QueryResult extends Schema.Class<QueryResult>("QueryResult")({
  ...resultFields,
  /** Notes for people, e.g. values skipped because a field changed type. */
  hints: Schema.Array(Schema.String)
}) {}

export class CancelQueryRequest extends Schema.Class<CancelQueryRequest>("CancelQueryRequest")({
  query_id: QueryId
}) {}

/**
 * The response header of a non-JSON result's hints (a JSON result has them in its body):
 * a JSON array of sentences.
 */
export const HINTS_HEADER = "x-service-hints"

const queryDescription = [
  "Read-only SQL (SELECT, WITH, EXPLAIN, DESCRIBE, SHOW, EXISTS).",
  "`db.table` names another database of the cluster as the API names it;",
  "`SHOW TABLES` and `SHOW DATABASES` list what `GET /v1/tables` and `GET /v1/databases` list.",
  "The response carries `x-service-query-id`.",
  "With `format` JSON (the default) the body is the schema below; any other format is",
  "streamed raw as the engine writes it: `text/csv`, `text/tab-separated-values`, or",
  "`application/x-ndjson` for JSONEachRow and JSONEachRowWithProgress (whose lines are",
  "progress, metadata and row records); JSONCompact is `application/json`."
].join(" ")

/** Read-only SQL over the selected database. */
export class QueryApi extends HttpApiGroup.make("query")
  .add(
    HttpApiEndpoint.post("query", "/v1/query")
      .setUrlParams(DataScopeParams)
      .setPayload(QueryRequest)
      .addSuccess(QueryResult)
      // A paused cluster, or a query id already running.
      .addError(ErrorWire.Conflict)
      .addError(ErrorWire.ClusterPaused)
      .addError(ErrorWire.QueryRefused)
      .annotate(OpenApi.Description, queryDescription)
  )
  .add(
    HttpApiEndpoint.post("cancel", "/v1/query/cancel")
      .setUrlParams(DataScopeParams)
      .setPayload(CancelQueryRequest)
      .addSuccess(Schema.Struct({ cancelled: Schema.Literal(true) }))
      .annotate(
        OpenApi.Description,
        "Cancels a running SQL query or SPL search; only the scope that started it may."
      )
  )
  .addError(ErrorWire.BadRequest)
  .addError(ErrorWire.Forbidden)
  .addError(ErrorWire.NotFound)
  .addError(ErrorWire.Unavailable)
  .addError(ErrorWire.DatabaseNotFound)
  .addError(ErrorWire.InvalidDatabaseName)
  .middleware(Authentication)
  .annotate(OpenApi.Description, "Read-only SQL") {}
