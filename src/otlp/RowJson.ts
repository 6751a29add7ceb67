/**
 * Rows to `JSONEachRow` text. `bigint`s are written as bare integer literals, which the
 * engine reads exactly (a `DateTime64(9)` from an integer is nanoseconds since the
 * epoch; `UInt64` keeps all 64 bits); `JSON.stringify` cannot write them.
 */

export type RowValue =
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
  if (isList(value)) return `[${value.map(valueJson).join(",")}]`
  const parts: Array<string> = []
  for (const key in value) parts.push(`${JSON.stringify(key)}:${valueJson(value[key]!)}`)
  return `{${parts.join(",")}}`
}

/** One line per row, each ending in a newline. */
export const rowsJson = (rows: ReadonlyArray<object>): string => {
  const lines: Array<string> = []
  // Rows are flat records of `RowValue`s (see domain/OtlpTransforms.ts).
  for (const row of rows) lines.push(valueJson(row as { readonly [key: string]: RowValue }) + "\n")
  return lines.join("")
}
