/** What every OTLP signal shares: attribute values, resources and scopes. */
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
