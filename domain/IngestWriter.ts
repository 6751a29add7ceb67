/**
 * The ingest path (decisions.md §6) as capabilities: records, rows a transform flattened,
 * a payload to transform, or a file behind a URL go into a table of a cluster's database.
 * Each answers a typed outcome, never a transport's response; a transport reads the body,
 * its headers and parameters, and renders the outcome.
 */
import { Context, Schema } from "effect"
import type { Effect, Stream } from "effect"
import { InsertTransform } from "./api/TablesApi.js"
import type { ClusterScope } from "./Authorization.js"
import {
  BadRequest,
  Conflict,
  Forbidden,
  InsertTokenReused,
  MalformedRecords,
  PayloadTooLarge,
  Unavailable
} from "./Errors.js"
import type { DatabaseName, TableName } from "./Ids.js"
import type { OtlpExport } from "./OtlpModel.js"

/** `json`: one object or an array of objects; `ndjson`: one object per line. */
export const RecordsFormat = Schema.Literal("json", "ndjson")
export type RecordsFormat = typeof RecordsFormat.Type

/**
 * An insert token: the same token with the same body inserts once (within a day); with
 * another body it is `InsertTokenReused`. The hash is the sender's, taken over the bytes
 * as they arrived, and read only once the whole body went through.
 */
export interface InsertToken {
  readonly token: string
  readonly bodyHash: Effect.Effect<string>
}

/** Records to insert: the body's bytes with any content-encoding undone, as they arrive. */
export interface Records<E> {
  readonly bytes: Stream.Stream<Uint8Array, E>
  readonly format: RecordsFormat
  readonly token: InsertToken | undefined
}

export interface InsertOutcome {
  readonly inserted: number
}

/** Stored OTLP rows: `rejected` records were invalid and left out (`message` says why). */
export interface ExportOutcome {
  readonly accepted: number
  readonly rejected: number
  readonly message: string | undefined
}

/** Why a write failed: the body's records, a reused token, or the cluster (paused, down). */
export type WriteFailure = MalformedRecords | InsertTokenReused | Conflict | Unavailable

/**
 * Writes into a cluster's tables; a table is created on first insert. A write is all or
 * nothing: a failed one leaves the table as it was.
 */
export class IngestWriter extends Context.Tag("sluice/IngestWriter")<
  IngestWriter,
  {
    /** Streams `records` into the schemaless `table`; the body is never held whole. */
    readonly insertRecords: <E>(
      scope: ClusterScope,
      database: DatabaseName,
      table: TableName,
      records: Records<E>
    ) => Effect.Effect<InsertOutcome, E | WriteFailure>
    /**
     * Inserts rows a transform flattened (JSON object texts, one line each). The token's
     * hash is taken over the rows, so a retried batch whose envelope changed still matches.
     */
    readonly insertRows: (
      scope: ClusterScope,
      database: DatabaseName,
      table: TableName,
      rows: ReadonlyArray<string>,
      token: string | undefined
    ) => Effect.Effect<InsertOutcome, WriteFailure>
    /**
     * Flattens an OTLP export into the collector exporter's typed tables (`table`, or
     * `table_gauge`… for metrics). `BadRequest`: a table of that name has other columns.
     */
    readonly insertExport: (
      scope: ClusterScope,
      database: DatabaseName,
      table: TableName,
      request: OtlpExport
    ) => Effect.Effect<ExportOutcome, BadRequest | Conflict | Unavailable>
  }
>() {}

/** A payload for a transform (`?transform=`), read whole, content-encoding undone. */
export class TransformPayload extends Schema.Class<TransformPayload>("TransformPayload")({
  transform: InsertTransform,
  body: Schema.Uint8ArrayFromSelf,
  /** OTLP only: how the export request is encoded. */
  encoding: Schema.Literal("json", "protobuf"),
  /** An explicit insert token (the OTLP transforms take none). */
  token: Schema.UndefinedOr(Schema.String),
  /** `delivery-stream`: the attempt's request id, the batch's token unless one is given. */
  requestId: Schema.UndefinedOr(Schema.String),
  /** `delivery-stream`: the common attributes as sent, `{"commonAttributes": {…}}`. */
  commonAttributes: Schema.UndefinedOr(Schema.String)
}) {}

/** What a transform insert did; `rejected` and `message` are OTLP's invalid records. */
export type TransformOutcome =
  | {
      readonly _tag: "Inserted"
      readonly inserted: number
      readonly rejected: number
      readonly message: string | undefined
    }
  | { readonly _tag: "Acknowledged"; readonly requestId: string; readonly timestamp: number }

export class TransformedIngest extends Context.Tag("sluice/TransformedIngest")<
  TransformedIngest,
  {
    /**
     * Flattens the payload and writes its rows through `IngestWriter`. A delivery-stream
     * batch is `Acknowledged`; the others answer what was inserted, and for OTLP what
     * was rejected.
     */
    readonly insert: (
      scope: ClusterScope,
      database: DatabaseName,
      table: TableName,
      payload: TransformPayload
    ) => Effect.Effect<TransformOutcome, BadRequest | PayloadTooLarge | WriteFailure>
  }
>() {}

/** Why fetching a URL failed before anything was loaded. */
export type FetchFailure = BadRequest | Forbidden | PayloadTooLarge

/** Why a URL load failed. */
export const LoadFailure = Schema.Union(
  BadRequest,
  Forbidden,
  PayloadTooLarge,
  MalformedRecords,
  InsertTokenReused,
  Conflict,
  Unavailable
)
export type LoadFailure = typeof LoadFailure.Type

/** A running URL load, as it goes: `Started`, `Progress` each second, then how it ended. */
export const LoadEvent = Schema.Union(
  Schema.TaggedStruct("Started", { queryId: Schema.String, format: Schema.String }),
  Schema.TaggedStruct("Progress", {
    writtenRows: Schema.Number,
    readBytes: Schema.Number,
    totalBytes: Schema.UndefinedOr(Schema.Number)
  }),
  Schema.TaggedStruct("Done", { writtenRows: Schema.Number, readBytes: Schema.Number }),
  Schema.TaggedStruct("Failed", { error: LoadFailure }),
  /** Cancelled by its query id (`Started`). */
  Schema.TaggedStruct("Cancelled", {}),
  /** Broke on our side. */
  Schema.TaggedStruct("Crashed", {})
)
export type LoadEvent = typeof LoadEvent.Type

export class UrlSource extends Schema.Class<UrlSource>("UrlSource")({
  url: Schema.String,
  token: Schema.UndefinedOr(Schema.String)
}) {}

export class UrlIngest extends Context.Tag("sluice/UrlIngest")<
  UrlIngest,
  {
    /** Fetches the file (JSON, NDJSON, CSV, TSV, Parquet) and inserts it whole. */
    readonly insert: (
      scope: ClusterScope,
      database: DatabaseName,
      table: TableName,
      source: UrlSource
    ) => Effect.Effect<InsertOutcome, LoadFailure>
    /**
     * The same, reporting as it goes. It fails only when the file cannot be fetched or
     * read; after that the events say how the load ended, and it can be cancelled
     * like a query by the id of `Started`.
     */
    readonly insertWithProgress: (
      scope: ClusterScope,
      database: DatabaseName,
      table: TableName,
      source: UrlSource
    ) => Effect.Effect<Stream.Stream<LoadEvent>, FetchFailure | Conflict | Unavailable>
  }
>() {}
