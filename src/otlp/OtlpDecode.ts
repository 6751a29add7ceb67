/**
 * An export request's bytes to the decoded model, for OTLP/JSON and protobuf alike:
 * both go through the messages generated from `proto/`, so the transforms see one shape.
 */
import { fromBinary, fromJson } from "@bufbuild/protobuf"
import type { DescMessage, JsonValue, MessageShape } from "@bufbuild/protobuf"
import { Effect } from "effect"
import { BadRequest } from "../../domain/Errors.js"
import type { OtlpExport } from "../../domain/OtlpModel.js"
import { ExportLogsServiceRequestSchema } from "./gen/opentelemetry/proto/collector/logs/v1/logs_service_pb.js"
import { ExportMetricsServiceRequestSchema } from "./gen/opentelemetry/proto/collector/metrics/v1/metrics_service_pb.js"
import { ExportTraceServiceRequestSchema } from "./gen/opentelemetry/proto/collector/trace/v1/trace_service_pb.js"
import { NotHexId, rewriteLogIds, rewriteMetricIds, rewriteTraceIds } from "./OtlpJsonIds.js"
import { nestsTooDeep, tooDeepMessage } from "../body/JsonNesting.js"
import { exportRequestOf } from "./OtlpJsonShape.js"
import { quoteLongIntegers } from "./OtlpJsonText.js"

import type { OtlpEncoding, OtlpSignal } from "../../domain/OtlpExports.js"

const SIGNALS = {
  traces: { schema: ExportTraceServiceRequestSchema, rewriteIds: rewriteTraceIds },
  logs: { schema: ExportLogsServiceRequestSchema, rewriteIds: rewriteLogIds },
  metrics: { schema: ExportMetricsServiceRequestSchema, rewriteIds: rewriteMetricIds }
} as const

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error))

const badJson = (signal: OtlpSignal, detail: string) =>
  new BadRequest({
    message: `The body is not an OTLP/JSON ${signal} export request: ${detail}`,
    hint: `Send an Export${signalName(signal)}ServiceRequest in the OTLP/JSON encoding (hex ids, integer enums).`
  })

const signalName = (signal: OtlpSignal) =>
  signal === "traces" ? "Trace" : signal === "logs" ? "Logs" : "Metrics"

const decodeJson = <Desc extends DescMessage>(
  signal: OtlpSignal,
  schema: Desc,
  rewriteIds: (root: { [key: string]: unknown }) => void,
  bytes: Uint8Array
): MessageShape<Desc> => {
  let parsed: unknown
  try {
    const text = new TextDecoder("utf-8", { fatal: true }).decode(bytes)
    if (nestsTooDeep(text)) throw new Error(`${tooDeepMessage}.`)
    parsed = JSON.parse(quoteLongIntegers(text))
  } catch (error) {
    throw badJson(signal, messageOf(error))
  }
  const request = exportRequestOf(signal, parsed)
  try {
    rewriteIds(request)
  } catch (error) {
    if (error instanceof NotHexId)
      throw new BadRequest({
        message: /^[0-9a-f]*$/i.test(error.value)
          ? `${error.field} '${error.value.slice(0, 64)}' has an odd number of hex digits.`
          : `OTLP/JSON ids are hex strings; ${error.field} '${error.value.slice(0, 64)}' is not hex (base64 ids are not accepted).`,
        hint: "Encode trace and span ids as lowercase hex (32 and 16 characters), as the OTLP/JSON encoding requires."
      })
    throw error
  }
  try {
    // The rewritten tree is plain JSON (it came from JSON.parse).
    return fromJson(schema, request as JsonValue, { ignoreUnknownFields: true })
  } catch (error) {
    throw badJson(signal, messageOf(error))
  }
}

const decodeProtobuf = <Desc extends DescMessage>(
  signal: OtlpSignal,
  schema: Desc,
  bytes: Uint8Array
): MessageShape<Desc> => {
  try {
    return fromBinary(schema, bytes)
  } catch (error) {
    throw new BadRequest({
      message: `The body is not a protobuf ${signal} export request: ${messageOf(error)}`,
      hint: `Send an Export${signalName(signal)}ServiceRequest encoded as protobuf (application/x-protobuf).`
    })
  }
}

const decode = <Desc extends DescMessage>(
  signal: OtlpSignal,
  encoding: OtlpEncoding,
  schema: Desc,
  rewriteIds: (root: { [key: string]: unknown }) => void,
  bytes: Uint8Array
): MessageShape<Desc> =>
  encoding === "json"
    ? decodeJson(signal, schema, rewriteIds, bytes)
    : decodeProtobuf(signal, schema, bytes)

const decodeSync = (signal: OtlpSignal, encoding: OtlpEncoding, bytes: Uint8Array): OtlpExport => {
  switch (signal) {
    case "traces": {
      const { schema, rewriteIds } = SIGNALS.traces
      return { signal, request: decode(signal, encoding, schema, rewriteIds, bytes) }
    }
    case "logs": {
      const { schema, rewriteIds } = SIGNALS.logs
      return { signal, request: decode(signal, encoding, schema, rewriteIds, bytes) }
    }
    case "metrics": {
      const { schema, rewriteIds } = SIGNALS.metrics
      return { signal, request: decode(signal, encoding, schema, rewriteIds, bytes) }
    }
  }
}

/** Decodes one export request; anything that is not a valid request is a 400. */
export const decodeExport = (
  signal: OtlpSignal,
  encoding: OtlpEncoding,
  bytes: Uint8Array
): Effect.Effect<OtlpExport, BadRequest> =>
  Effect.try({
    try: () => decodeSync(signal, encoding, bytes),
    catch: (error) =>
      error instanceof BadRequest
        ? error
        : new BadRequest({
            message: `The ${signal} export request cannot be decoded: ${messageOf(error)}`,
            hint: "Send a valid OTLP export request."
          })
  })
