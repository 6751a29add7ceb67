/**
 * TSV text under given column names (delivery-stream rule 3): one row per non-empty line,
 * fields split on tabs, the usual escapes (`\t`, `\n`, `\r`, `\\`) undone and `\N` read
 * as no value; text with no tab under several columns is read as CSV (Csv.ts). Values
 * stay strings: TSV carries no types, and the engine's casts and comparisons on a string
 * column still work. A line with another number of fields than
 * there are columns refuses the record (a shifted column would store wrong data).
 */
import { Either } from "effect"
import { csvRecords } from "./Csv.js"

const ESCAPES: Record<string, string> = { t: "\t", n: "\n", r: "\r", "\\": "\\", "0": "\0" }

const unescape = (field: string) =>
  field.includes("\\") ? field.replace(/\\(.)/g, (_, c: string) => ESCAPES[c] ?? c) : field

/** Column names from an array or a string separated by commas or tabs; none → undefined. */
export const columnNames = (
  columns: ReadonlyArray<string> | string | undefined
): ReadonlyArray<string> | undefined => {
  if (columns === undefined) return undefined
  const names = (typeof columns === "string" ? columns.split(/[,\t]/) : columns)
    .map((name) => name.trim())
    .filter((name) => name.length > 0)
  return names.length === 0 ? undefined : names
}

const member = (name: string, value: string) => `${JSON.stringify(name)}:${JSON.stringify(value)}`

/** Fields of each non-empty TSV line, with its line number; `\N` is no value. */
const tsvRecords = (text: string) => {
  const records: Array<{ readonly line: number; readonly fields: Array<string | undefined> }> = []
  const lines = text.split("\n")
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.endsWith("\r") ? lines[i]!.slice(0, -1) : lines[i]!
    if (line.length === 0) continue
    const fields = line.split("\t").map((field) => (field === "\\N" ? undefined : unescape(field)))
    records.push({ line: i + 1, fields })
  }
  return records
}

export const tsvRows = (
  text: string,
  columns: ReadonlyArray<string>,
  attributes: ReadonlyArray<readonly [string, string]>
): Either.Either<Array<string>, string> => {
  const named = new Set(columns)
  const extra = attributes.filter(([name]) => !named.has(name))
  const csv = columns.length > 1 && !text.includes("\t")
  const parsed = csv ? csvRecords(text) : Either.right(tsvRecords(text))
  if (Either.isLeft(parsed)) return Either.left(parsed.left)
  const rows: Array<string> = []
  for (const { line, fields } of parsed.right) {
    if (fields.length !== columns.length) {
      return Either.left(
        `line ${line} has ${fields.length} ${csv ? "CSV" : "TSV"} fields but ${columns.length} columns are named (${columns.join(", ")})`
      )
    }
    // Members as text: a column named `__proto__` is still a column.
    const members: Array<string> = []
    fields.forEach((field, j) => {
      if (field !== undefined) members.push(member(columns[j]!, field))
    })
    for (const [name, value] of extra) members.push(member(name, value))
    rows.push(`{${members.join(",")}}`)
  }
  return Either.right(rows)
}
