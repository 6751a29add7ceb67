/**
 * OTLP attribute values as typed JSON values, the way OTLP/JSON clients read them:
 * strings, booleans, integers, doubles as themselves, bytes in base64, arrays as arrays,
 * and key-value lists as nested paths (`attributes.http.request.header.x`), so every leaf
 * is queryable by its dotted name. An empty value has no field at all.
 */
import type { OtlpAnyValue, OtlpAttributes } from "../../../domain/OtlpModel.js"
import { FlatFields } from "./FlatRow.js"
import type { FlatValue } from "./FlatRow.js"

const base64 = (bytes: Uint8Array) =>
  Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("base64")

/** A value that is not a key-value list; `undefined` when it is empty. */
const scalarOrList = (value: OtlpAnyValue | undefined): FlatValue | undefined => {
  const v = value?.value
  switch (v?.case) {
    case undefined:
      return undefined
    case "stringValue":
    case "boolValue":
    case "intValue":
    case "doubleValue":
      return v.value
    case "bytesValue":
      return base64(v.value)
    case "arrayValue": {
      const values: Array<FlatValue> = []
      for (const element of v.value.values) {
        const flat = scalarOrList(element)
        if (flat !== undefined) values.push(flat)
      }
      return values.length === 0 ? undefined : values
    }
    case "kvlistValue": {
      const nested = new FlatFields()
      addAttributes(nested, "", v.value.values)
      return nested.fields.size === 0 ? undefined : nested.fields
    }
  }
}

/** Sets `value` at `path`, a key-value list as one path per leaf under it. */
export const addValue = (into: FlatFields, path: string, value: OtlpAnyValue | undefined) => {
  const v = value?.value
  if (v?.case === "kvlistValue") addAttributes(into, `${path}.`, v.value.values)
  else into.set(path, scalarOrList(value))
}

/** Each attribute at `prefix` + its key; attributes without a key are left out. */
export const addAttributes = (into: FlatFields, prefix: string, attributes: OtlpAttributes) => {
  for (const kv of attributes) if (kv.key !== "") addValue(into, prefix + kv.key, kv.value)
}

/** A resource's attributes as top-level dotted fields (`service.name`), computed once. */
export const resourceFields = (attributes: OtlpAttributes | undefined) => {
  const fields = new FlatFields()
  addAttributes(fields, "", attributes ?? [])
  return [...fields.fields]
}

/** Nanosecond times are strings: they exceed 2^53, and OTLP/JSON writes them so. */
export const nanos = (value: bigint) => value.toString()
