/**
 * `otlp-traces`, `otlp-logs` and `otlp-metrics` inserts: an OTLP export request
 * (OTLP/JSON or protobuf), decoded and flattened into the exporter's typed tables through
 * `IngestWriter.insertExport`. Invalid records are left out and counted in the outcome.
 */
import { Effect } from "effect"
import type { ClusterScope } from "../../domain/Authorization.js"
import type { DatabaseName, TableName } from "../../domain/Ids.js"
import type { IngestWriter } from "../../domain/IngestWriter.js"
import type { TransformOutcome, TransformPayload } from "../../domain/TransformedIngest.js"
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
    const stored = yield* writer.insertExport(scope, database, table, request)
    return {
      _tag: "Inserted",
      inserted: stored.accepted,
      rejected: stored.rejected,
      message: stored.message
    } satisfies TransformOutcome
  })
