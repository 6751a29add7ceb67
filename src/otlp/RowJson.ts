/**
 * Rows to `JSONEachRow` text. `bigint`s are written as bare integer literals, which the
 * engine reads exactly (a `DateTime64(9)` from an integer is nanoseconds since the
 * epoch; `UInt64` keeps all 64 bits); `JSON.stringify` cannot write them.
 */

type RowValue =
  | string
  | number
  | bigint
  | boolean
  | ReadonlyArray<RowValue>
  | { readonly [key: string]: RowValue }

const numberText = (value: number) =>
  Number.isFinite(value)
    ? String(value)
    : Number.isNaN(value)
      ? '"nan"'
      : value > 0
        ? '"inf"'
        : '"-inf"'

const isList = (value: object): value is ReadonlyArray<RowValue> => Array.isArray(value)

// String concatenation: V8 builds ropes, cheaper here than arrays joined per value.
const valueJson = (value: RowValue): string => {
  switch (typeof value) {
    case "string":
      return JSON.stringify(value)
    case "number":
      return numberText(value)
    case "bigint":
      return value.toString()
    case "boolean":
      return value ? "true" : "false"
  }
  let out: string
  if (isList(value)) {
    out = "["
    for (let i = 0; i < value.length; i++) out += (i === 0 ? "" : ",") + valueJson(value[i]!)
    return out + "]"
  }
  out = "{"
  for (const key in value)
    out += (out.length === 1 ? "" : ",") + JSON.stringify(key) + ":" + valueJson(value[key]!)
  return out + "}"
}

/** One line per row, each ending in a newline. */
export const rowsJson = (rows: ReadonlyArray<object>): string => {
  let out = ""
  // Rows are flat records of `RowValue`s (see domain/OtlpTransforms.ts).
  for (const row of rows) out += valueJson(row as { readonly [key: string]: RowValue }) + "\n"
  return out
}
