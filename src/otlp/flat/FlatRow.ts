/**
 * One schemaless row of an OTLP transform as JSON text, built field by
 * field under dotted paths. Paths are kept flat (`attributes.http.method`), the engine
 * splits them on dots, so two values that would land on one path are caught here: the
 * first wins (a record's own fields before its resource's attributes), where the engine
 * would refuse the whole insert for a duplicate path.
 *
 * Numbers carry their OTLP type into the engine's inference: integers are `bigint`s
 * written bare (every digit kept), doubles always with a fraction or exponent (`5.0`), so
 * a double that happens to be whole is never inferred as an integer and a column keeps
 * one type. Non-finite doubles are the strings OTLP/JSON uses (`NaN`, `Infinity`).
 */

export type FlatValue = string | boolean | bigint | number | ReadonlyArray<FlatValue> | FlatObject

/** An object value (array elements): ordered, and free of `__proto__` surprises. */
type FlatObject = ReadonlyMap<string, FlatValue>

const doubleJson = (value: number) => {
  if (!Number.isFinite(value))
    return Number.isNaN(value) ? '"NaN"' : value > 0 ? '"Infinity"' : '"-Infinity"'
  const text = String(value)
  return /[.e]/.test(text) ? text : `${text}.0`
}

const isList = (value: ReadonlyArray<FlatValue> | FlatObject): value is ReadonlyArray<FlatValue> =>
  Array.isArray(value)

const valueJson = (value: FlatValue): string => {
  switch (typeof value) {
    case "string":
      return JSON.stringify(value)
    case "bigint":
      return value.toString()
    case "number":
      return doubleJson(value)
    case "boolean":
      return value ? "true" : "false"
  }
  if (!isList(value)) return objectJson(value)
  let out = "["
  const list = value
  for (let i = 0; i < list.length; i++) out += (i === 0 ? "" : ",") + valueJson(list[i]!)
  return out + "]"
}

const objectJson = (fields: FlatObject) => {
  let out = "{"
  for (const [path, value] of fields)
    out += (out.length === 1 ? "" : ",") + JSON.stringify(path) + ":" + valueJson(value)
  return out + "}"
}

/** Fields by dotted path; `set` keeps the first value of a path and skips `undefined`. */
export class FlatFields {
  readonly fields = new Map<string, FlatValue>()

  set(path: string, value: FlatValue | undefined): this {
    if (value !== undefined && !this.fields.has(path)) this.fields.set(path, value)
    return this
  }

  /** A list, left out when empty (`[]` has no element type to infer). */
  list(path: string, values: ReadonlyArray<FlatValue>): this {
    return values.length === 0 ? this : this.set(path, values)
  }

  /** Entries already flattened (a resource's attributes), first value of a path winning. */
  merge(entries: ReadonlyArray<readonly [string, FlatValue]>): this {
    for (const [path, value] of entries) this.set(path, value)
    return this
  }

  json(): string {
    return objectJson(this.fields)
  }
}
