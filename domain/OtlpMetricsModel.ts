/**
 * The metrics half of the decoded OTLP model (see `OtlpModel.ts`): metrics of five
 * kinds, each a list of data points.
 */
import type { OtlpAttributes, OtlpResource, OtlpScope } from "./OtlpCommonModel.js"

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
