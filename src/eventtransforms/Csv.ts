/**
 * Comma-separated records (RFC 4180): fields split on commas, a field in double quotes
 * may hold commas, newlines and `""` for a quote; lines end in LF or CRLF; empty lines
 * are skipped. For delivery-stream records under named columns that hold no tab (a
 * stream may carry CSV as well as TSV): with more than one column such a record could
 * never be TSV, so reading it as CSV only turns a refusal into rows.
 */
import { Either } from "effect"

/** The records of `text`, each with the line it starts on; a quote left open is refused. */
export const csvRecords = (
  text: string
): Either.Either<Array<{ readonly line: number; readonly fields: Array<string> }>, string> => {
  const records: Array<{ line: number; fields: Array<string> }> = []
  let fields: Array<string> = []
  let field = ""
  let quoted = false
  let line = 1
  let start = 1
  let blank = true
  const endRecord = () => {
    if (!blank) records.push({ line: start, fields: [...fields, field] })
    fields = []
    field = ""
    blank = true
  }
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"'
        i++
      } else if (c === '"') quoted = false
      else {
        if (c === "\n") line++
        field += c
      }
      continue
    }
    if (blank) start = line
    if (c === "\n" || (c === "\r" && text[i + 1] === "\n")) {
      if (c === "\r") i++
      endRecord()
      line++
      continue
    }
    blank = false
    if (c === '"' && field.length === 0) quoted = true
    else if (c === ",") {
      fields.push(field)
      field = ""
    } else field += c
  }
  if (quoted) return Either.left(`line ${start} opens a quoted CSV field that never closes`)
  endRecord()
  return Either.right(records)
}
