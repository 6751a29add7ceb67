/**
 * `TransformedIngest`: each family of source formats flattens its payload in its own
 * module and writes through `IngestWriter`; this only routes by name.
 */
import { Effect, Layer } from "effect"
import type { ClusterScope } from "../../domain/Authorization.js"
import { EventTransforms } from "../../domain/EventTransforms.js"
import type { DatabaseName, TableName } from "../../domain/Ids.js"
import { IngestWriter } from "../../domain/IngestWriter.js"
import { TransformedIngest } from "../../domain/TransformedIngest.js"
import type { TransformPayload } from "../../domain/TransformedIngest.js"
import { SluiceConfig } from "../config/SluiceConfig.js"
import { makeOtlpTransformInsert } from "../otlp/OtlpTransformInsert.js"
import { makeEventTransformInsert } from "../eventtransforms/EventTransformInsert.js"

export const TransformedIngestLive = Layer.effect(
  TransformedIngest,
  Effect.gen(function* () {
    const writer = yield* IngestWriter
    const { maxInsertBytes } = yield* SluiceConfig
    const events = makeEventTransformInsert(yield* EventTransforms, writer, maxInsertBytes)
    const otlp = makeOtlpTransformInsert(writer)

    const insert = Effect.fn("TransformedIngest.insert")(function* (
      scope: ClusterScope,
      database: DatabaseName,
      table: TableName,
      payload: TransformPayload
    ) {
      switch (payload.transform) {
        case "otlp-traces":
        case "otlp-logs":
        case "otlp-metrics":
          return yield* otlp(scope, database, table, payload.transform, payload)
        case "cloud-logs":
        case "cloud-audit":
        case "delivery-stream":
          return yield* events(scope, database, table, payload.transform, payload)
      }
    })

    return TransformedIngest.of({ insert })
  })
)
