/**
 * Inserts with `?transform=`: a payload in a source format (log
 * subscriptions, audit trails, delivery-stream batches, OTLP export requests) flattened
 * into rows, which go in through `IngestWriter`.
 */
import { Context, Schema } from "effect"
import type { Effect } from "effect"
import { InsertTransform } from "./api/TablesApi.js"
import type { ClusterScope } from "./Authorization.js"
import type { BadRequest, PayloadTooLarge } from "./Errors.js"
import type { DatabaseName, TableName } from "./Ids.js"
import type { WriteFailure } from "./IngestWriter.js"

/** A payload for a transform (`?transform=`), read whole, content-encoding undone. */
export class TransformPayload extends Schema.Class<TransformPayload>("TransformPayload")({
  transform: InsertTransform,
  body: Schema.Uint8ArrayFromSelf,
  /** OTLP only: how the export request is encoded. */
  encoding: Schema.Literal("json", "protobuf"),
  /** An explicit insert token. */
  token: Schema.UndefinedOr(Schema.String),
  /** `delivery-stream`: the attempt's request id, the batch's token unless one is given. */
  requestId: Schema.UndefinedOr(Schema.String),
  /** `delivery-stream`: the common attributes as sent, `{"commonAttributes": {…}}`. */
  commonAttributes: Schema.UndefinedOr(Schema.String),
  /** `delivery-stream`: the `columns` parameter, TSV column names separated by commas. */
  columns: Schema.optional(Schema.String)
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
