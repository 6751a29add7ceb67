/**
 * One delivery-stream record's data through the delivery-stream decoding rules:
 * 1. a JSON object → one row; 2. an array of JSON objects → one row each; 3. UTF-8 TSV
 * text with columns → one row per line under those names; 4. UTF-8 TSV text without
 * columns → one row `{data: text}`; 5. anything else → 400 naming the record.
 * Beyond the five: gzip data is inflated first; newline-separated JSON objects give one
 * row each; a log-subscription object (what a subscription filter forwards through a
 * stream) flattens as `cloud-logs`. Text that starts with `{` but is not JSON is refused
 * (rule 5) rather than stored as text: the sender meant JSON. JSON scalars (`42`,
 * `"x"`) are text, so a one-column TSV of numbers still works.
 */
import { Either } from "effect"
import { BadRequest, PayloadTooLarge } from "../../domain/Errors.js"
import type { EventRejected } from "../../domain/EventTransforms.js"
import { isSubscription, subscriptionRows } from "./CloudLogs.js"
import { inflateIfGzip, tooDense } from "../body/Decompress.js"
import { utf8Text } from "./PayloadText.js"
import { arrayElements, isPlainObject, oneLine, tryParse, withMembers } from "./JsonText.js"
import { tsvRows } from "./Tsv.js"

export interface RecordContext {
  /** Column names for TSV records (rule 3), if any were given. */
  readonly columns: ReadonlyArray<string> | undefined
  /** Added to every row that has no field of that name. */
  readonly attributes: ReadonlyArray<readonly [string, string]>
  /** Bytes that the batch's gzip records may still inflate to (shared by its records). */
  readonly budget: { left: number; readonly max: number }
}

export const RECORD_HINT =
  "Each record's data must be base64 of a JSON object, an array of JSON objects, newline-separated JSON objects, or UTF-8 TSV text (gzip allowed). Nothing was inserted."

/** A record that fails the batch; thrown inside the loop, caught once per batch. */
export class RecordRejected {
  constructor(readonly error: EventRejected) {}
}

const reject = (index: number, why: string): never => {
  throw new RecordRejected(
    new BadRequest({ message: `Record ${index} (records[${index}]) ${why}.`, hint: RECORD_HINT })
  )
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f]/

/** Rows of one JSON object: flattened when it is a log subscription. */
const objectRows = (
  index: number,
  text: string,
  value: Record<string, unknown>,
  context: RecordContext
): Array<string> => {
  if (isSubscription(value)) {
    const rows = subscriptionRows(value, context.attributes)
    return Either.isLeft(rows)
      ? reject(index, `is not a valid log subscription: ${rows.left}`)
      : rows.right
  }
  return [withMembers(oneLine(text), (name) => Object.hasOwn(value, name), context.attributes)]
}

/** Rows of JSON objects, one per non-empty line, or `undefined` when a line is not one. */
const lineRows = (index: number, text: string, context: RecordContext) => {
  const lines = text.split("\n").filter((line) => line.trim().length > 0)
  const parsed = lines.map((line) => tryParse(line))
  if (lines.length < 2 || !parsed.every((p) => p.ok && isPlainObject(p.value))) return undefined
  return lines.flatMap((line, i) => {
    const p = parsed[i]!
    return p.ok && isPlainObject(p.value) ? objectRows(index, line, p.value, context) : []
  })
}

const textRows = (index: number, text: string, context: RecordContext): Array<string> => {
  const whole = tryParse(text)
  if (whole.ok) {
    const value = whole.value
    if (isPlainObject(value)) return objectRows(index, text, value, context)
    if (Array.isArray(value)) {
      const bad = value.findIndex((element) => !isPlainObject(element))
      if (bad >= 0) return reject(index, `is a JSON array whose element ${bad} is not an object`)
      const texts = arrayElements(text, 0)
      return value.flatMap((element, i) =>
        isPlainObject(element) ? objectRows(index, texts[i]!, element, context) : []
      )
    }
  } else {
    const lines = lineRows(index, text, context)
    if (lines !== undefined) return lines
    if (text.startsWith("{"))
      return reject(index, `looks like JSON but does not parse: ${whole.reason}`)
  }
  if (CONTROL.test(text)) return reject(index, "is neither JSON nor TSV text (control characters)")
  if (context.columns === undefined) {
    return [
      withMembers(JSON.stringify({ data: text }), (name) => name === "data", context.attributes)
    ]
  }
  const rows = tsvRows(text, context.columns, context.attributes)
  return Either.isLeft(rows) ? reject(index, rows.left) : rows.right
}

/** The rows of `records[index]`, whose base64 data is `data`; throws `RecordRejected`. */
export const recordRows = (index: number, data: string, context: RecordContext): Array<string> => {
  const clean = data.replace(/\s+/g, "")
  if (!BASE64.test(clean) || clean.length % 4 === 1) reject(index, "has data that is not base64")
  const bytes = Buffer.from(clean, "base64")
  const inflated = inflateIfGzip(bytes, context.budget.left)
  if (Either.isLeft(inflated)) {
    if (inflated.left._tag === "TooDense") throw new RecordRejected(tooDense("gzip"))
    if (inflated.left._tag === "TooLarge") {
      throw new RecordRejected(
        new PayloadTooLarge({
          message: `The batch is larger than ${context.budget.max} bytes once its gzip records are inflated.`,
          hint: "Lower the delivery stream's buffer size (the limit is SLUICE_MAX_INSERT_BYTES)."
        })
      )
    }
    reject(index, `is gzip that cannot be inflated: ${inflated.left.reason}`)
  }
  const raw = Either.getOrThrow(inflated)
  if (raw !== bytes) context.budget.left -= raw.length
  const text = utf8Text(raw)
  if (text === undefined) return reject(index, "is neither JSON nor UTF-8 text (binary data)")
  const trimmed = text.trim()
  if (trimmed.length === 0) return []
  // JSON is read trimmed; text keeps every byte (rule 4 holds "the decoded text").
  return textRows(index, /^[{[]/.test(trimmed) ? trimmed : text, context)
}
