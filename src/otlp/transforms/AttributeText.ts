/**
 * Attribute values as text, the way the collector's ClickHouse exporter writes them into
 * its `Map(…, String)` columns (pdata `Value.AsString`): strings as they are, booleans
 * and integers in decimal, doubles as JavaScript prints them, bytes in base64, arrays and
 * maps as JSON (map keys sorted, `<>&` escaped, as Go's encoder does), empty as "".
 */
import type { AttributeMap } from "../../../domain/OtlpTransforms.js"
import type { OtlpAnyValue, OtlpAttributes } from "../../../domain/OtlpModel.js"

const base64 = (bytes: Uint8Array) =>
  Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("base64")

const goJsonString = (text: string) =>
  JSON.stringify(text).replace(/[<>&\u2028\u2029]/g, (c) =>
    c === "<"
      ? "\\u003c"
      : c === ">"
        ? "\\u003e"
        : c === "&"
          ? "\\u0026"
          : c === "\u2028"
            ? "\\u2028"
            : "\\u2029"
  )

const json = (value: OtlpAnyValue | undefined): string => {
  const v = value?.value
  switch (v?.case) {
    case undefined:
      return "null"
    case "stringValue":
      return goJsonString(v.value)
    case "boolValue":
      return v.value ? "true" : "false"
    case "intValue":
      return v.value.toString()
    case "doubleValue":
      return Number.isFinite(v.value) ? String(v.value) : "null"
    case "bytesValue":
      return `"${base64(v.value)}"`
    case "arrayValue":
      return `[${v.value.values.map(json).join(",")}]`
    case "kvlistValue": {
      const entries = new Map<string, OtlpAnyValue | undefined>()
      for (const kv of v.value.values) entries.set(kv.key, kv.value)
      const keys = [...entries.keys()].sort()
      return `{${keys.map((key) => `${goJsonString(key)}:${json(entries.get(key))}`).join(",")}}`
    }
  }
}

export const valueText = (value: OtlpAnyValue | undefined): string => {
  const v = value?.value
  switch (v?.case) {
    case undefined:
      return ""
    case "stringValue":
      return v.value
    case "boolValue":
      return v.value ? "true" : "false"
    case "intValue":
      return v.value.toString()
    case "doubleValue":
      return String(v.value)
    case "bytesValue":
      return base64(v.value)
    case "arrayValue":
    case "kvlistValue":
      return json(value)
  }
}

/** A null-prototype object, so a key like `__proto__` is an ordinary key. */
export const attributeMap = (attributes: OtlpAttributes | undefined): AttributeMap => {
  const map: Record<string, string> = Object.create(null)
  if (attributes !== undefined) for (const kv of attributes) map[kv.key] = valueText(kv.value)
  return map
}

export const serviceNameOf = (attributes: OtlpAttributes | undefined): string => {
  if (attributes === undefined) return ""
  for (const kv of attributes) if (kv.key === "service.name") return valueText(kv.value)
  return ""
}
