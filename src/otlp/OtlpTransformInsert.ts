/**
 * `otlp-traces`, `otlp-logs` and `otlp-metrics` inserts: an OTLP export request
 * (OTLP/JSON or protobuf), decoded and flattened into OTLP/JSON-named rows of the one
 * schemaless table the path names (`flat/OtlpFlatten.ts`), written through
 * `IngestWriter.insertRows` like any transform's rows: all or nothing, and an insert
 * token inserts once. Invalid records are left out and counted in the outcome.
 */
import { Effect } from "effect"
import type { ClusterScope } from "../../domain/Authorization.js"
import type { DatabaseName, TableName } from "../../domain/Ids.js"
import type { IngestWriter } from "../../domain/IngestWriter.js"
import type { TransformOutcome, TransformPayload } from "../../domain/TransformedIngest.js"
import { flattenExport } from "./flat/OtlpFlatten.js"
import { decodeExport } from "./OtlpDecode.js"
import type { OtlpSignal } from "./OtlpDecode.js"

export const OTLP_TRANSFORMS = {
  "otlp-traces": "traces",
  "otlp-logs": "logs",
  "otlp-metrics": "metrics"
} as const satisfies Record<string, OtlpSignal>

export type OtlpTransform = keyof typeof OTLP_TRANSFORMS

export const makeOtlpTransformInsert = (writer: IngestWriter["Type"]) =>
  Effect.fnUntraced(function* (
    scope: ClusterScope,
    database: DatabaseName,
    table: TableName,
    transform: OtlpTransform,
    payload: TransformPayload
  ) {
    const request = yield* decodeExport(OTLP_TRANSFORMS[transform], payload.encoding, payload.body)
    const flat = flattenExport(request)
    const stored = yield* writer.insertRows(scope, database, table, flat.rows, payload.token)
    return {
      _tag: "Inserted",
      inserted: stored.inserted,
      rejected: flat.rejected,
      message: flat.message
    } satisfies TransformOutcome
  })
