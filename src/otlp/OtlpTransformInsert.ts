/**
 * `POST /v1/tables/{t}?transform=otlp-traces|otlp-logs|otlp-metrics`: an OTLP export
 * request (OTLP/JSON, or protobuf with `application/x-protobuf`), gzip or zstd like any
 * insert, flattened into the exporter's typed tables. Answers `{inserted}`, plus
 * `rejected` and `message` when invalid records were left out.
 */
import { HttpServerResponse } from "@effect/platform"
import { Effect } from "effect"
import { UnsupportedMediaType } from "../../domain/Errors.js"
import type { InsertTarget } from "../ingest/InsertHandler.js"
import { wholeBody } from "../ingest/RequestBody.js"
import type { OtlpEncoding, OtlpSignal } from "./OtlpIngest.js"
import { decodeExport, ingestExport } from "./OtlpIngest.js"

const SIGNALS = {
  "otlp-traces": "traces",
  "otlp-logs": "logs",
  "otlp-metrics": "metrics"
} as const satisfies Record<string, OtlpSignal>

const encodingOf = (contentType: string | undefined) => {
  const type = (contentType ?? "application/json").split(";")[0]!.trim().toLowerCase()
  if (type === "application/json" || type === "text/json" || type === "")
    return Effect.succeed<OtlpEncoding>("json")
  if (type === "application/x-protobuf" || type === "application/protobuf")
    return Effect.succeed<OtlpEncoding>("protobuf")
  return Effect.fail(
    new UnsupportedMediaType({
      message: `OTLP transforms read application/json (OTLP/JSON) or application/x-protobuf, not ${type}.`,
      hint: "Send the export request as OTLP/JSON with content-type: application/json."
    })
  )
}

export const insertOtlpTransform = Effect.fn("OtlpTransformInsert.insert")(function* (
  target: InsertTarget,
  transform: keyof typeof SIGNALS
) {
  const signal = SIGNALS[transform]
  const { request, maxInsertBytes } = target
  const encoding = yield* encodingOf(request.headers["content-type"])
  const bytes = yield* wholeBody(request, maxInsertBytes)
  const decoded = yield* decodeExport(signal, encoding, bytes)
  const result = yield* ingestExport(target.engine, target.database, target.table, signal, decoded)
  return HttpServerResponse.unsafeJson(
    result.rejected === 0
      ? { inserted: result.accepted }
      : { inserted: result.accepted, rejected: result.rejected, message: result.message }
  )
})
