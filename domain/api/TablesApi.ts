import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { ErrorWire } from "../Errors.js"
import { Authentication } from "../Identity.js"
import { TableName } from "../Ids.js"
import { DatabaseRef, DataScopeParams, Deleted, OrganizationRef } from "./Scope.js"

/** The source formats an insert can flatten. */
export const InsertTransform = Schema.Literal(
  "otlp-traces",
  "otlp-logs",
  "otlp-metrics",
  "cloud-logs",
  "cloud-audit",
  "delivery-stream"
)
export type InsertTransform = typeof InsertTransform.Type

const transformAliases = [
  ["cloudwatch-logs", "cloud-logs"],
  ["cloudtrail", "cloud-audit"],
  ["firehose", "delivery-stream"]
] as const

/** Every value `transform` accepts, in the order a refusal lists them. */
export const acceptedTransforms: ReadonlyArray<string> = [
  ...InsertTransform.literals,
  ...transformAliases.map(([alias]) => alias)
]

/** The `transform` parameter: the spec's names, plus aliases that decode to them. */
export const TransformParam = Schema.Union(
  InsertTransform,
  Schema.transformLiterals(...transformAliases)
).annotations({
  message: () => ({
    message: `must be one of ${acceptedTransforms.join(", ")}`,
    override: true
  })
})

export class TableSummary extends Schema.Class<TableSummary>("TableSummary")({
  name: Schema.String,
  created_at: Schema.String,
  total_rows: Schema.Int,
  total_bytes: Schema.Int
}) {}

export class Column extends Schema.Class<Column>("Column")({
  name: Schema.String,
  /** The engine's type name. */
  type: Schema.String
}) {}

export class TableDescription extends Schema.Class<TableDescription>("TableDescription")({
  ...TableSummary.fields,
  /**
   * Every column a query can name: the dotted leaf paths of a schemaless table
   * (`request.client.geo.country`), the physical columns of a fixed layout (OTLP tables).
   */
  columns: Schema.Array(Column)
}) {}

export class Inserted extends Schema.Class<Inserted>("Inserted")({ inserted: Schema.Int }) {}

/** What a `transform=delivery-stream` insert answers instead of `Inserted`. */
export class DeliveryStreamAck extends Schema.Class<DeliveryStreamAck>("DeliveryStreamAck")({
  requestId: Schema.String,
  timestamp: Schema.Number
}) {}

export const InsertParams = Schema.Struct({
  ...DataScopeParams.fields,
  transform: Schema.optional(TransformParam),
  /** Fetch and insert this http(s) file instead of reading a body; not with `transform`. */
  url: Schema.optional(Schema.String),
  /** Same token and body insert once within the dedup window; also `idempotency-key`. */
  insert_deduplication_token: Schema.optional(Schema.String),
  /** `transform=delivery-stream` only: names of the columns of TSV (or CSV) records. */
  columns: Schema.optional(Schema.String)
})

const insertDescription = [
  "Tables are created on first insert. The body is read raw, by content type:",
  "`application/json` (one object or an array of objects),",
  "`application/x-ndjson` (one object per line);",
  "`content-encoding: gzip` or `zstd` may wrap either.",
  "With `url` and no body the service fetches the file (JSON array, NDJSON, CSV or TSV",
  "with header, Parquet); `accept: application/x-ndjson` then streams",
  "`started`/`progress`/`done`/`error` lines.",
  "`transform=delivery-stream` authenticates with `X-Amz-Firehose-Access-Key` and answers",
  "`{requestId, timestamp}` (errors add `errorMessage`); `columns=a,b` names the columns",
  "of its TSV or CSV records.",
  "A rejected body inserts nothing: 400 for malformed JSON (with line and byte offset), a",
  "non-object record (with its index) or an empty body; 413 over SLUICE_MAX_INSERT_BYTES",
  "(before or after decompression); 415 for another content type or encoding.",
  "An insert token (`insert_deduplication_token` or `idempotency-key`) reused with the same",
  "body answers the first insert's count and inserts nothing; with another body, 409."
].join(" ")

const table = HttpApiSchema.param("table", TableName)

/** Tables of the selected database, and inserting rows into them. */
export class TablesApi extends HttpApiGroup.make("tables")
  .add(
    HttpApiEndpoint.get("list", "/v1/tables")
      .setUrlParams(DataScopeParams)
      .addSuccess(
        Schema.Struct({
          tables: Schema.Array(TableSummary),
          database: DatabaseRef,
          /** An alias of `database` that existing clients read. */
          project: DatabaseRef,
          organization: OrganizationRef
        })
      )
  )
  .add(
    HttpApiEndpoint.get("describe")`/v1/tables/${table}`.setUrlParams(DataScopeParams).addSuccess(
      // The table's fields both nested and at the top level: clients of both shapes exist.
      Schema.Struct({
        ...TableDescription.fields,
        table: TableDescription,
        database: DatabaseRef,
        project: DatabaseRef,
        organization: OrganizationRef
      })
    )
  )
  // No payload schema: the body may be NDJSON or compressed, so the handler reads it raw.
  .add(
    HttpApiEndpoint.post("insert")`/v1/tables/${table}`
      .setUrlParams(InsertParams)
      .addSuccess(Inserted)
      .addSuccess(DeliveryStreamAck)
      .addError(ErrorWire.PayloadTooLarge)
      .addError(ErrorWire.UnsupportedMediaType)
      .addError(ErrorWire.InsertTokenReused)
      .addError(ErrorWire.MalformedRecords)
      .annotate(OpenApi.Description, insertDescription)
  )
  .add(
    HttpApiEndpoint.del("delete")`/v1/tables/${table}`
      .setUrlParams(DataScopeParams)
      .addSuccess(Deleted)
      .annotate(OpenApi.Description, "Admin only.")
  )
  .addError(ErrorWire.BadRequest)
  .addError(ErrorWire.Forbidden)
  .addError(ErrorWire.NotFound)
  // A URL load whose id is running; then a paused cluster.
  .addError(ErrorWire.Conflict)
  .addError(ErrorWire.ClusterPaused)
  .addError(ErrorWire.Unavailable)
  .addError(ErrorWire.DatabaseNotFound)
  .addError(ErrorWire.InvalidDatabaseName)
  .middleware(Authentication)
  .annotate(OpenApi.Description, "Tables and inserts") {}
