/** Trace and span ids: hex text for the tables, and the checks that reject a record. */

const HEX: ReadonlyArray<string> = Array.from({ length: 256 }, (_, i) =>
  i.toString(16).padStart(2, "0")
)

export const hex = (bytes: Uint8Array): string => {
  let out = ""
  for (let i = 0; i < bytes.length; i++) out += HEX[bytes[i]!]
  return out
}

export const TRACE_ID_BYTES = 16
export const SPAN_ID_BYTES = 8

/** Why an id is invalid, or `undefined`; `optional` ids may also be empty. */
export const idProblem = (
  name: string,
  bytes: Uint8Array,
  size: number,
  optional: boolean
): string | undefined =>
  bytes.length === size || (optional && bytes.length === 0)
    ? undefined
    : `${name} is ${bytes.length} bytes, not ${size}`

/** Counts rejected records and keeps the first reason, for `partialSuccess`. */
export class Rejections {
  count = 0
  private first: string | undefined

  reject(what: string, reason: string, count = 1) {
    this.count += count
    this.first ??= `${what}: ${reason}`
  }

  message(noun: string): string | undefined {
    return this.count === 0
      ? undefined
      : `${this.count} ${noun} rejected (first: ${this.first ?? "invalid"}).`
  }
}
