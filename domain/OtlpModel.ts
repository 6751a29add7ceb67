/**
 * A decoded OTLP export request, whichever encoding it arrived in (OTLP/JSON or
 * protobuf). The shapes follow the protocol's messages field for field (camelCase):
 * ids are raw bytes, 64-bit integers and nanosecond times are `bigint`, enums are
 * their numbers. Messages generated from the `.proto` files satisfy these types.
 */
import type { OtlpAnyValue, OtlpAttributes, OtlpResource, OtlpScope } from "./OtlpCommonModel.js"
import type { OtlpMetricsRequest } from "./OtlpMetricsModel.js"

export type * from "./OtlpCommonModel.js"
export type * from "./OtlpMetricsModel.js"

export interface OtlpSpan {
  readonly traceId: Uint8Array
  readonly spanId: Uint8Array
  readonly traceState: string
  readonly parentSpanId: Uint8Array
  readonly name: string
  readonly kind: number
  readonly startTimeUnixNano: bigint
  readonly endTimeUnixNano: bigint
  readonly attributes: OtlpAttributes
  readonly events: ReadonlyArray<{
    readonly timeUnixNano: bigint
    readonly name: string
    readonly attributes: OtlpAttributes
  }>
  readonly links: ReadonlyArray<{
    readonly traceId: Uint8Array
    readonly spanId: Uint8Array
    readonly traceState: string
    readonly attributes: OtlpAttributes
  }>
  readonly status?: { readonly message: string; readonly code: number } | undefined
}

export interface OtlpTracesRequest {
  readonly resourceSpans: ReadonlyArray<{
    readonly resource?: OtlpResource | undefined
    readonly schemaUrl: string
    readonly scopeSpans: ReadonlyArray<{
      readonly scope?: OtlpScope | undefined
      readonly schemaUrl: string
      readonly spans: ReadonlyArray<OtlpSpan>
    }>
  }>
}

export interface OtlpLogRecord {
  readonly timeUnixNano: bigint
  readonly observedTimeUnixNano: bigint
  readonly severityNumber: number
  readonly severityText: string
  readonly body?: OtlpAnyValue | undefined
  readonly attributes: OtlpAttributes
  readonly flags: number
  readonly traceId: Uint8Array
  readonly spanId: Uint8Array
  readonly eventName: string
}

export interface OtlpLogsRequest {
  readonly resourceLogs: ReadonlyArray<{
    readonly resource?: OtlpResource | undefined
    readonly schemaUrl: string
    readonly scopeLogs: ReadonlyArray<{
      readonly scope?: OtlpScope | undefined
      readonly schemaUrl: string
      readonly logRecords: ReadonlyArray<OtlpLogRecord>
    }>
  }>
}

/** One decoded export request of any signal. */
export type OtlpExport =
  | { readonly signal: "traces"; readonly request: OtlpTracesRequest }
  | { readonly signal: "logs"; readonly request: OtlpLogsRequest }
  | { readonly signal: "metrics"; readonly request: OtlpMetricsRequest }
