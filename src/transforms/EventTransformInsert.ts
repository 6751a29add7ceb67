/**
 * `?transform=cloud-logs|cloud-audit|delivery-stream` on a table insert: the body is
 * read whole, flattened into rows by `EventTransforms`, and the rows go through the
 * ordinary body insert as NDJSON (one staging table, published at once, so a failed
 * request inserts nothing).
 *
 * Delivery streams retry a batch with the same `X-Amz-Firehose-Request-Id`: that id is
 * the batch's insert token (an explicit `insert_deduplication_token` / `idempotency-key`
 * wins). The token's body hash is taken over the rows, not the body: the body's
 * `timestamp` may differ between attempts of the same batch.
 */
import { HttpServerResponse } from "@effect/platform"
import { Effect, Option, Schema, Stream } from "effect"
import { createHash } from "node:crypto"
import { BadRequest } from "../../domain/Errors.js"
import {
  DeliveryStreamBatch,
  DeliveryStreamContext,
  EventTransforms
} from "../../domain/EventTransforms.js"
import type { EventRows } from "../../domain/EventTransforms.js"
import { insertBody } from "../ingest/BodyInsert.js"
import type { InsertTarget } from "../ingest/InsertHandler.js"
import { CHUNK_BYTES } from "../ingest/InsertHandler.js"
import { REQUEST_ID_HEADER } from "./DeliveryStreamErrors.js"
import { readTransformBody } from "./TransformBody.js"

export const COMMON_ATTRIBUTES_HEADER = "x-amz-firehose-common-attributes"

const CommonAttributesHeader = Schema.parseJson(
  Schema.Struct({
    commonAttributes: Schema.Record({ key: Schema.String, value: Schema.String })
  })
)

const decodeBatch = (body: Uint8Array) =>
  Schema.decodeUnknown(Schema.parseJson(DeliveryStreamBatch))(new TextDecoder().decode(body)).pipe(
    Effect.mapError(
      (error) =>
        new BadRequest({
          message: `The body is not a delivery-stream request: ${error.message}`,
          hint: "Send {requestId, timestamp, records:[{data: <base64>}]} as a delivery stream does."
        })
    )
  )

const commonAttributes = (header: string | undefined) =>
  header === undefined || header.trim() === ""
    ? Effect.succeed({})
    : Schema.decodeUnknown(CommonAttributesHeader)(header).pipe(
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

/** Rows as NDJSON bytes, about `CHUNK_BYTES` of text per piece. */
const ndjson = (rows: ReadonlyArray<string>) =>
  Stream.fromIterable(
    (function* () {
      const encoder = new TextEncoder()
      let batch: Array<string> = []
      let size = 0
      for (const row of rows) {
        batch.push(row)
        size += row.length + 1
        if (size >= CHUNK_BYTES / 4) {
          yield encoder.encode(batch.join("\n") + "\n")
          batch = []
          size = 0
        }
      }
      if (batch.length > 0) yield encoder.encode(batch.join("\n") + "\n")
    })()
  )

const rowsHash = (rows: ReadonlyArray<string>) => {
  const hash = createHash("sha256")
  for (const row of rows) hash.update(row).update("\n")
  return hash.digest("hex")
}

const insertRows = (target: InsertTarget, rows: EventRows, token: string | undefined) =>
  rows.rows.length === 0
    ? Effect.succeed(0)
    : insertBody({
        engine: target.engine,
        database: target.database,
        table: target.table,
        body: ndjson(rows.rows),
        lines: true,
        chunkBytes: CHUNK_BYTES,
        token: Option.map(Option.fromNullable(token), (value) => ({
          token: value,
          bodyHash: () => rowsHash(rows.rows)
        }))
      })

export const insertEventTransform = Effect.fn("EventTransformInsert.insert")(function* (
  target: InsertTarget,
  transform: "cloud-logs" | "cloud-audit" | "delivery-stream"
) {
  const transforms = yield* EventTransforms
  const { request, params, maxInsertBytes } = target
  const explicitToken = params.insert_deduplication_token ?? request.headers["idempotency-key"]
  const body = yield* readTransformBody(request, maxInsertBytes)
  if (transform !== "delivery-stream") {
    const rows =
      transform === "cloud-logs"
        ? yield* transforms.cloudLogs(body, maxInsertBytes)
        : yield* transforms.cloudAudit(body, maxInsertBytes)
    const inserted = yield* insertRows(target, rows, explicitToken)
    return HttpServerResponse.unsafeJson({ inserted })
  }
  const batch = yield* decodeBatch(body)
  const attributes = yield* commonAttributes(request.headers[COMMON_ATTRIBUTES_HEADER])
  const rows = yield* transforms.deliveryStream(
    batch,
    new DeliveryStreamContext({ commonAttributes: attributes, maxBytes: maxInsertBytes })
  )
  const attempt = request.headers[REQUEST_ID_HEADER] || batch.requestId
  yield* insertRows(target, rows, explicitToken ?? `delivery-stream:${attempt}`)
  return HttpServerResponse.unsafeJson({ requestId: batch.requestId, timestamp: Date.now() })
})
