/**
 * The export response of each signal, in the request's encoding: empty when every record
 * was stored, OTLP's `partialSuccess` when some were dropped (or the ingest has a warning).
 */
import { create, toBinary } from "@bufbuild/protobuf"
import { ExportLogsServiceResponseSchema } from "../gen/opentelemetry/proto/collector/logs/v1/logs_service_pb.js"
import { ExportMetricsServiceResponseSchema } from "../gen/opentelemetry/proto/collector/metrics/v1/metrics_service_pb.js"
import { ExportTraceServiceResponseSchema } from "../gen/opentelemetry/proto/collector/trace/v1/trace_service_pb.js"
import type { OtlpSignal } from "../../../domain/OtlpExports.js"

export interface ExportOutcome {
  readonly accepted: number
  readonly rejected: number
  readonly message: string | undefined
}

/** The partialSuccess counter of each signal, as OTLP/JSON names it. */
const rejectedField = {
  traces: "rejectedSpans",
  logs: "rejectedLogRecords",
  metrics: "rejectedDataPoints"
} as const satisfies Record<OtlpSignal, string>

const isPartial = (outcome: ExportOutcome) =>
  outcome.rejected > 0 || (outcome.message !== undefined && outcome.message !== "")

/** OTLP/JSON: `{}`, or `{partialSuccess: {rejected…, errorMessage}}` (int64 as a string). */
export const responseJson = (signal: OtlpSignal, outcome: ExportOutcome) =>
  isPartial(outcome)
    ? {
        partialSuccess: {
          [rejectedField[signal]]: String(outcome.rejected),
          errorMessage: outcome.message ?? ""
        }
      }
    : {}

/** The binary response message (also the gRPC reply). */
export const responseBinary = (signal: OtlpSignal, outcome: ExportOutcome): Uint8Array => {
  const partial = isPartial(outcome)
  const rejected = BigInt(outcome.rejected)
  const errorMessage = outcome.message ?? ""
  switch (signal) {
    case "traces":
      return toBinary(
        ExportTraceServiceResponseSchema,
        create(
          ExportTraceServiceResponseSchema,
          partial ? { partialSuccess: { rejectedSpans: rejected, errorMessage } } : {}
        )
      )
    case "logs":
      return toBinary(
        ExportLogsServiceResponseSchema,
        create(
          ExportLogsServiceResponseSchema,
          partial ? { partialSuccess: { rejectedLogRecords: rejected, errorMessage } } : {}
        )
      )
    case "metrics":
      return toBinary(
        ExportMetricsServiceResponseSchema,
        create(
          ExportMetricsServiceResponseSchema,
          partial ? { partialSuccess: { rejectedDataPoints: rejected, errorMessage } } : {}
        )
      )
  }
}
