/**
 * A decoded OTLP export request, whichever encoding it arrived in (OTLP/JSON or
 * protobuf). The shapes follow the protocol's messages field for field (camelCase):
 * ids are raw bytes, 64-bit integers and nanosecond times are `bigint`, enums are
 * their numbers. Messages generated from the `.proto` files satisfy these types.
 */

/** An attribute value: one of the cases, or none (`case: undefined`). */
export interface OtlpAnyValue {
  readonly value:
    | { readonly case: "stringValue"; readonly value: string }
    | { readonly case: "boolValue"; readonly value: boolean }
    | { readonly case: "intValue"; readonly value: bigint }
    | { readonly case: "doubleValue"; readonly value: number }
    | {
        readonly case: "arrayValue"
        readonly value: { readonly values: ReadonlyArray<OtlpAnyValue> }
      }
    | {
        readonly case: "kvlistValue"
        readonly value: { readonly values: ReadonlyArray<OtlpKeyValue> }
      }
    | { readonly case: "bytesValue"; readonly value: Uint8Array }
    | { readonly case: undefined; readonly value?: undefined }
}

export interface OtlpKeyValue {
  readonly key: string
  readonly value?: OtlpAnyValue | undefined
}

export type OtlpAttributes = ReadonlyArray<OtlpKeyValue>

export interface OtlpResource {
  readonly attributes: OtlpAttributes
}

export interface OtlpScope {
  readonly name: string
  readonly version: string
  readonly attributes: OtlpAttributes
  readonly droppedAttributesCount: number
}

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

export interface OtlpExemplar {
  readonly filteredAttributes: OtlpAttributes
  readonly timeUnixNano: bigint
  readonly value: OtlpNumberValue
  readonly spanId: Uint8Array
  readonly traceId: Uint8Array
}

export type OtlpNumberValue =
  | { readonly case: "asDouble"; readonly value: number }
  | { readonly case: "asInt"; readonly value: bigint }
  | { readonly case: undefined; readonly value?: undefined }

/** What every kind of data point has. */
export interface OtlpPointBase {
  readonly attributes: OtlpAttributes
  readonly startTimeUnixNano: bigint
  readonly timeUnixNano: bigint
  readonly flags: number
}

export interface OtlpNumberDataPoint extends OtlpPointBase {
  readonly value: OtlpNumberValue
  readonly exemplars: ReadonlyArray<OtlpExemplar>
}

export interface OtlpHistogramDataPoint extends OtlpPointBase {
  readonly count: bigint
  readonly sum?: number | undefined
  readonly bucketCounts: ReadonlyArray<bigint>
  readonly explicitBounds: ReadonlyArray<number>
  readonly exemplars: ReadonlyArray<OtlpExemplar>
  readonly min?: number | undefined
  readonly max?: number | undefined
}

export interface OtlpExponentialHistogramDataPoint extends OtlpPointBase {
  readonly count: bigint
  readonly sum?: number | undefined
  readonly scale: number
  readonly zeroCount: bigint
  readonly positive?: OtlpBuckets | undefined
  readonly negative?: OtlpBuckets | undefined
  readonly exemplars: ReadonlyArray<OtlpExemplar>
  readonly min?: number | undefined
  readonly max?: number | undefined
}

export interface OtlpBuckets {
  readonly offset: number
  readonly bucketCounts: ReadonlyArray<bigint>
}

export interface OtlpSummaryDataPoint extends OtlpPointBase {
  readonly count: bigint
  readonly sum: number
  readonly quantileValues: ReadonlyArray<{ readonly quantile: number; readonly value: number }>
}

export interface OtlpMetric {
  readonly name: string
  readonly description: string
  readonly unit: string
  readonly data:
    | {
        readonly case: "gauge"
        readonly value: { readonly dataPoints: ReadonlyArray<OtlpNumberDataPoint> }
      }
    | {
        readonly case: "sum"
        readonly value: {
          readonly dataPoints: ReadonlyArray<OtlpNumberDataPoint>
          readonly aggregationTemporality: number
          readonly isMonotonic: boolean
        }
      }
    | {
        readonly case: "histogram"
        readonly value: {
          readonly dataPoints: ReadonlyArray<OtlpHistogramDataPoint>
          readonly aggregationTemporality: number
        }
      }
    | {
        readonly case: "exponentialHistogram"
        readonly value: {
          readonly dataPoints: ReadonlyArray<OtlpExponentialHistogramDataPoint>
          readonly aggregationTemporality: number
        }
      }
    | {
        readonly case: "summary"
        readonly value: { readonly dataPoints: ReadonlyArray<OtlpSummaryDataPoint> }
      }
    | { readonly case: undefined; readonly value?: undefined }
}

export interface OtlpMetricsRequest {
  readonly resourceMetrics: ReadonlyArray<{
    readonly resource?: OtlpResource | undefined
    readonly schemaUrl: string
    readonly scopeMetrics: ReadonlyArray<{
      readonly scope?: OtlpScope | undefined
      readonly schemaUrl: string
      readonly metrics: ReadonlyArray<OtlpMetric>
    }>
  }>
}

/** One decoded export request of any signal. */
export type OtlpExport =
  | { readonly signal: "traces"; readonly request: OtlpTracesRequest }
  | { readonly signal: "logs"; readonly request: OtlpLogsRequest }
  | { readonly signal: "metrics"; readonly request: OtlpMetricsRequest }
