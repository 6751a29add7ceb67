/**
 * `otlp-traces`, `otlp-logs` and `otlp-metrics` inserts: an OTLP export request
 * (OTLP/JSON or protobuf), decoded and flattened into OTLP/JSON-named rows of the one
 * schemaless table the path names (`flat/OtlpFlatten.ts`), written through
 * `IngestWriter.insertRows` like any transform's rows: all or nothing, and an insert
 * token inserts once. Invalid records are left out and counted in the outcome.
 *
 * A table the OTLP app made for the same signal (`traces` …) takes the export in its own
 * typed columns, as the app's endpoints store it; a table of another layout is refused.
 */
import { Effect } from "effect"
import type { ClusterScope } from "../../domain/Authorization.js"
import type { DatabaseName, TableName } from "../../domain/Ids.js"
import type { IngestWriter } from "../../domain/IngestWriter.js"
import type { TransformOutcome, TransformPayload } from "../../domain/TransformedIngest.js"
import { BadRequest } from "../../domain/Errors.js"
import { refuseOtherLayout } from "./TableKindRefusal.js"
import { flattenExport } from "./flat/OtlpFlatten.js"
import { decodeExport } from "./OtlpDecode.js"
import type { OtlpSignal } from "../../domain/OtlpExports.js"

const OTLP_TRANSFORMS = {
  "otlp-traces": "traces",
  "otlp-logs": "logs",
  "otlp-metrics": "metrics"
} as const satisfies Record<string, OtlpSignal>

type OtlpTransform = keyof typeof OTLP_TRANSFORMS

export const makeOtlpTransformInsert = (writer: IngestWriter["Type"]) =>
  Effect.fnUntraced(function* (
    scope: ClusterScope,
    database: DatabaseName,
    table: TableName,
    transform: OtlpTransform,
    payload: TransformPayload
  ) {
    const signal = OTLP_TRANSFORMS[transform]
    const request = yield* decodeExport(signal, payload.encoding, payload.body)
    const kind = yield* writer.tableKind(scope, database, table)
    if (kind === transform) {
      if (payload.token !== undefined) {
        return yield* new BadRequest({
          message: `Insert tokens are not kept for '${table}', a table of the OTLP app's typed layout.`,
          hint: "Send the export without insert_deduplication_token or idempotency-key, or to a table of another name."
        })
      }
      const stored = yield* writer.insertExport(scope, database, table, request)
      return {
        _tag: "Inserted",
        inserted: stored.accepted,
        rejected: stored.rejected,
        message: stored.message
      } satisfies TransformOutcome
    }
    yield* refuseOtherLayout(table, kind, `OTLP ${signal} as records`)
    const flat = flattenExport(request)
    const stored = yield* writer.insertRows(scope, database, table, flat.rows, payload.token)
    return {
      _tag: "Inserted",
      inserted: stored.inserted,
      rejected: flat.rejected,
      message: flat.message
    } satisfies TransformOutcome
  })
