/**
 * `strftime`/`strptime` formats (C `strftime` codes, as Splunk's docs list them) in the
 * engine's `formatDateTime`/`parseDateTime` syntax, which is MySQL's: `%M` is the minute
 * in C but a month name there, so each code is mapped, never passed through. Time is UTC
 * (the zone the subset assumes). Codes the engine has no match for are built from parts
 * (`%s` epoch seconds, `%3N`/`%Q` milliseconds, `%Z` the zone's name) or refused.
 */
import { quoteString } from "../../engine/Sql.js"

const SAME = "YymdeHIpbajTFDzuwVGgCkl"
const RENAMED: Readonly<Record<string, string>> = { M: "i", S: "S", B: "M", A: "W", h: "b" }

/** One piece of a format: engine format text, or an SQL expression over the time `t`. */
type Piece = { readonly format: string } | { readonly sql: (t: string) => string }

const millis = (t: string) => `leftPad(toString(toUnixTimestamp64Milli(${t}) % 1000), 3, '0')`

/** The pieces of `format`, or the first code the engine cannot produce (`unknown`). */
export const formatPieces = (
  format: string,
  parsing: boolean
): { readonly pieces: ReadonlyArray<Piece>; readonly unknown: string | null } => {
  const pieces: Array<Piece> = []
  let text = ""
  const flush = () => {
    if (text !== "") pieces.push({ format: text })
    text = ""
  }
  for (let i = 0; i < format.length; i++) {
    const c = format[i]!
    if (c !== "%") {
      text += c
      continue
    }
    const code = /^%(\d?N|.)?/.exec(format.slice(i))![1] ?? ""
    i += code.length
    if (code === "%" || code === "n" || code === "t")
      text += code === "%" ? "%%" : code === "n" ? "\n" : "\t"
    else if (code !== "" && SAME.includes(code)) text += `%${code}`
    else if (code in RENAMED) text += `%${RENAMED[code]}`
    else if (parsing) return { pieces, unknown: `%${code}` }
    else if (code === "Z") text += "UTC"
    else if (code === "s" || code === "Q" || /^\d?N$/.test(code)) {
      flush()
      const digits = code === "s" ? 0 : code === "Q" ? 3 : Number(code.slice(0, -1) || "9")
      pieces.push({
        sql: (t) =>
          digits === 0
            ? `toString(toUnixTimestamp(${t}))`
            : `substring(concat(${millis(t)}, '000000'), 1, ${digits})`
      })
    } else return { pieces, unknown: `%${code}` }
  }
  flush()
  return { pieces, unknown: null }
}

/** `t` (a DateTime64 in SQL) formatted by the pieces. */
export const formatSql = (pieces: ReadonlyArray<Piece>, t: string) => {
  const parts = pieces.map((p) =>
    "format" in p ? `formatDateTime(${t}, ${quoteString(p.format)}, 'UTC')` : p.sql(t)
  )
  return parts.length === 0 ? "''" : parts.length === 1 ? parts[0]! : `concat(${parts.join(", ")})`
}
