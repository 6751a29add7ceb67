/**
 * A small ClickHouse SQL lexer: enough to see identifiers and punctuation outside of
 * strings and comments. Quoted identifiers (`…` and "…") are unquoted; one holding a
 * backslash escape is reported as such rather than decoded.
 */
export interface Token {
  readonly kind: "identifier" | "escapedIdentifier" | "string" | "number" | "punctuation"
  readonly text: string
}

const WORD = /[A-Za-z_$][A-Za-z0-9_$]*/y
const NUMBER = /[0-9][A-Za-z0-9_.]*/y
const HEREDOC = /\$([A-Za-z0-9_]*)\$/y

// A heredoc only when its closing tag follows; otherwise `$` is part of a word.
const heredocAt = (sql: string, i: number): boolean => {
  HEREDOC.lastIndex = i
  if (!HEREDOC.test(sql)) return false
  return sql.indexOf(sql.slice(i, HEREDOC.lastIndex), HEREDOC.lastIndex) !== -1
}

const closing = (sql: string, from: number, quote: string): number => {
  let j = from
  while (j < sql.length) {
    if (sql[j] === "\\") j += 2
    else if (sql[j] === quote) {
      if (sql[j + 1] === quote) j += 2
      else return j
    } else j++
  }
  return sql.length
}

export const tokens = (sql: string): ReadonlyArray<Token> => {
  const out: Array<Token> = []
  let i = 0
  while (i < sql.length) {
    const c = sql[i]!
    if (/\s/.test(c)) i++
    else if ((c === "-" && sql[i + 1] === "-") || (c === "#" && /[ !]/.test(sql[i + 1] ?? ""))) {
      const end = sql.indexOf("\n", i)
      i = end === -1 ? sql.length : end + 1
    } else if (c === "/" && sql[i + 1] === "*") {
      const end = sql.indexOf("*/", i + 2)
      i = end === -1 ? sql.length : end + 2
    } else if (c === "'" || c === '"' || c === "`") {
      const end = closing(sql, i + 1, c)
      const body = sql.slice(i + 1, end)
      const kind = c === "'" ? "string" : body.includes("\\") ? "escapedIdentifier" : "identifier"
      out.push({ kind, text: body.replaceAll(c + c, c) })
      i = end + 1
    } else if (c === "$" && heredocAt(sql, i)) {
      const tag = sql.slice(i, HEREDOC.lastIndex)
      const end = sql.indexOf(tag, HEREDOC.lastIndex)
      out.push({
        kind: "string",
        text: sql.slice(HEREDOC.lastIndex, end === -1 ? sql.length : end)
      })
      i = end === -1 ? sql.length : end + tag.length
    } else if (((WORD.lastIndex = i), WORD.test(sql))) {
      out.push({ kind: "identifier", text: sql.slice(i, WORD.lastIndex) })
      i = WORD.lastIndex
    } else if (((NUMBER.lastIndex = i), NUMBER.test(sql))) {
      out.push({ kind: "number", text: sql.slice(i, NUMBER.lastIndex) })
      i = NUMBER.lastIndex
    } else {
      out.push({ kind: "punctuation", text: c })
      i++
    }
  }
  return out
}
