/**
 * Slices of JSON text that `JSON.parse` already accepted: the text of each array element
 * or object member, so a record keeps its exact text (big integers, number formatting)
 * instead of being parsed and serialised again. Only for valid JSON.
 */
import { nestsTooDeep, tooDeepMessage } from "../body/JsonNesting.js"

const isSpace = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09

const skipSpace = (text: string, at: number) => {
  let i = at
  while (i < text.length && isSpace(text.charCodeAt(i))) i++
  return i
}

/** The index just after the string whose opening quote is at `at`. */
const endOfString = (text: string, at: number) => {
  let i = at + 1
  while (i < text.length) {
    const c = text.charCodeAt(i)
    if (c === 0x5c) i += 2
    else if (c === 0x22) return i + 1
    else i++
  }
  return i
}

/** The index just after the value that starts at `at` (no leading space). */
const endOfValue = (text: string, at: number) => {
  const first = text.charCodeAt(at)
  if (first === 0x22) return endOfString(text, at)
  if (first !== 0x7b && first !== 0x5b) {
    let i = at
    while (i < text.length) {
      const c = text.charCodeAt(i)
      if (c === 0x2c || c === 0x7d || c === 0x5d || isSpace(c)) break
      i++
    }
    return i
  }
  let depth = 0
  let i = at
  while (i < text.length) {
    const c = text.charCodeAt(i)
    if (c === 0x22) {
      i = endOfString(text, i)
      continue
    }
    if (c === 0x7b || c === 0x5b) depth++
    else if (c === 0x7d || c === 0x5d) {
      depth--
      if (depth === 0) return i + 1
    }
    i++
  }
  return i
}

/** The texts of the elements of the array whose `[` is at `at`. */
export const arrayElements = (text: string, at: number): Array<string> => {
  const out: Array<string> = []
  let i = skipSpace(text, at + 1)
  if (text.charCodeAt(i) === 0x5d) return out
  while (i < text.length) {
    const end = endOfValue(text, i)
    out.push(text.slice(i, end))
    i = skipSpace(text, end)
    if (text.charCodeAt(i) !== 0x2c) break
    i = skipSpace(text, i + 1)
  }
  return out
}

/** The text of member `name` of the object whose `{` is at `at` (the last one wins). */
export const memberText = (text: string, at: number, name: string): string | undefined => {
  let found: string | undefined
  let i = skipSpace(text, at + 1)
  while (i < text.length && text.charCodeAt(i) === 0x22) {
    const keyEnd = endOfString(text, i)
    const key: unknown = JSON.parse(text.slice(i, keyEnd))
    const valueAt = skipSpace(text, skipSpace(text, keyEnd) + 1)
    const end = endOfValue(text, valueAt)
    if (key === name) found = text.slice(valueAt, end)
    i = skipSpace(text, end)
    if (text.charCodeAt(i) !== 0x2c) break
    i = skipSpace(text, i + 1)
  }
  return found
}

/**
 * Valid JSON on one line: a raw line break can only be whitespace between tokens
 * (inside strings it must be escaped), so it becomes a space.
 */
export const oneLine = (json: string) => json.trim().replace(/[\r\n]+/g, " ")

export const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

/** `JSON.parse` as a result: the value, or why the text is not JSON (or too deep to walk). */
export const tryParse = (
  text: string
):
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly reason: string } => {
  if (nestsTooDeep(text)) return { ok: false, reason: tooDeepMessage }
  try {
    return { ok: true, value: JSON.parse(text) }
  } catch (error) {
    return { ok: false, reason: error instanceof Error ? error.message : String(error) }
  }
}

/**
 * `row` (an object text) with `extra` members added at its end, skipping names the row
 * already has (`has`): the record's own fields win.
 */
export const withMembers = (
  row: string,
  has: (name: string) => boolean,
  extra: ReadonlyArray<readonly [string, string]>
) => {
  const added = extra.filter(([name]) => !has(name))
  if (added.length === 0) return row
  const body = row.trimEnd()
  const inner = body.slice(0, -1).trimEnd()
  const members = added.map(([name, value]) => `${JSON.stringify(name)}:${JSON.stringify(value)}`)
  return `${inner}${inner.endsWith("{") ? "" : ","}${members.join(",")}}`
}
