/**
 * `cloud-logs`, `cloud-audit` and `delivery-stream` inserts: the payload, read whole, is
 * flattened into rows by `EventTransforms`, and the rows go in through
 * `IngestWriter.insertRows` (one staging table, published at once, so a failed request
 * inserts nothing).
 *
 * Delivery streams retry a batch with the same request id (`X-Amz-Firehose-Request-Id`):
 * that id is the batch's insert token (an explicit token wins). The token's hash is taken
 * over the rows, not the body: the body's `timestamp` may differ between attempts.
 */
import { Effect, Schema } from "effect"
import type { ClusterScope } from "../../domain/Authorization.js"
import { BadRequest } from "../../domain/Errors.js"
import {
  DeliveryStreamBatch,
  DeliveryStreamContext,
  EventTransforms
} from "../../domain/EventTransforms.js"
import type { DatabaseName, TableName } from "../../domain/Ids.js"
import { nestsTooDeep, tooDeepMessage } from "../body/JsonNesting.js"
import type { IngestWriter } from "../../domain/IngestWriter.js"
import type { TransformOutcome, TransformPayload } from "../../domain/TransformedIngest.js"

const CommonAttributes = Schema.parseJson(
  Schema.Struct({
    commonAttributes: Schema.Record({ key: Schema.String, value: Schema.String })
  })
)

const notBatch = (detail: string) =>
  new BadRequest({
    message: `The body is not a delivery-stream request: ${detail}`,
    hint: "Send {requestId, timestamp, records:[{data: <base64>}]} as a delivery stream does."
  })

const decodeBatch = (body: Uint8Array) => {
  const text = new TextDecoder().decode(body)
  if (nestsTooDeep(text)) return Effect.fail(notBatch(`${tooDeepMessage}.`))
  return Schema.decodeUnknown(Schema.parseJson(DeliveryStreamBatch))(text).pipe(
    Effect.mapError((error) => notBatch(error.message))
  )
}

const commonAttributes = (text: string | undefined) =>
  text === undefined || text.trim() === ""
    ? Effect.succeed({})
    : Schema.decodeUnknown(CommonAttributes)(nestsTooDeep(text) ? "" : text).pipe(
        Effect.map((decoded) => decoded.commonAttributes),
        Effect.mapError(
          () =>
            new BadRequest({
              message:
                'The X-Amz-Firehose-Common-Attributes header is not {"commonAttributes": {name: string value}}.',
              hint: "Fix the header, or leave it out."
            })
        )
      )

export type EventTransform = "cloud-logs" | "cloud-audit" | "delivery-stream"

/** The event transforms' inserts, over the program's transforms and writer. */
export const makeEventTransformInsert = (
  transforms: EventTransforms["Type"],
  writer: IngestWriter["Type"],
  maxBytes: number
) =>
  Effect.fnUntraced(function* (
    scope: ClusterScope,
    database: DatabaseName,
    table: TableName,
    transform: EventTransform,
    payload: TransformPayload
  ) {
    const inserted = (count: { readonly inserted: number }): TransformOutcome => ({
      _tag: "Inserted",
      inserted: count.inserted,
      rejected: 0,
      message: undefined
    })
    switch (transform) {
      case "cloud-logs": {
        const rows = yield* transforms.cloudLogs(payload.body, maxBytes)
        return inserted(yield* writer.insertRows(scope, database, table, rows.rows, payload.token))
      }
      case "cloud-audit": {
        const rows = yield* transforms.cloudAudit(payload.body, maxBytes)
        return inserted(yield* writer.insertRows(scope, database, table, rows.rows, payload.token))
      }
      case "delivery-stream": {
        const batch = yield* decodeBatch(payload.body)
        const attributes = yield* commonAttributes(payload.commonAttributes)
        const rows = yield* transforms.deliveryStream(
          batch,
          new DeliveryStreamContext({
            commonAttributes: attributes,
            maxBytes,
            columns: payload.columns
          })
        )
        const attempt = payload.requestId || batch.requestId
        const token = payload.token ?? `delivery-stream:${attempt}`
        yield* writer.insertRows(scope, database, table, rows.rows, token)
        return {
          _tag: "Acknowledged",
          requestId: batch.requestId,
          timestamp: Date.now()
        } satisfies TransformOutcome
      }
    }
  })
