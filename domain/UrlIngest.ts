/**
 * Inserts with `?url=`: the file behind an http(s) URL, fetched from
 * public addresses only (unless allowed), in any of the formats a file may have, goes in
 * through `IngestWriter`.
 */
import { Context, Schema } from "effect"
import type { Effect, Stream } from "effect"
import type { ClusterScope } from "./Authorization.js"
import {
  BadRequest,
  ClusterPaused,
  Conflict,
  Forbidden,
  InsertTokenReused,
  MalformedRecords,
  PayloadTooLarge,
  Unavailable
} from "./Errors.js"
import type { DatabaseName, TableName } from "./Ids.js"
import type { InsertOutcome } from "./IngestWriter.js"

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
  ClusterPaused,
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
  /** Broke on our side: the service's log has the cause under `traceId`. */
  Schema.TaggedStruct("Crashed", { traceId: Schema.String })
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
    ) => Effect.Effect<
      Stream.Stream<LoadEvent>,
      FetchFailure | Conflict | ClusterPaused | Unavailable
    >
  }
>() {}
