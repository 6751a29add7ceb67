/**
 * A ClickHouse SQL lexer that splits a statement where the engine's own lexer does, so
 * that the guard sees every name the engine will see. Checked against the engine:
 * - quotes: `'…'` strings and `"…"`, `` `…` `` identifiers take backslash escapes and
 *   doubled quotes; the typographic `‘…’` (string) and `“…”` (identifier) take neither
 *   and end at the first closing mark;
 * - comments: `--` and `# ` / `#!` to the end of the line, and `/* … *\/`, which nest;
 * - anything outside ASCII, but those four quote marks, is whitespace to the engine
 *   (U+00A0, U+200B, U+3000, U+FEFF …) or a syntax error: here it is whitespace, so a
 *   name cannot hide from its parenthesis behind one;
 * - `$tag$…$tag$` heredocs are strings.
 * A quoted identifier holding a backslash escape is reported as such rather than decoded.
 */
export interface Token {
  readonly kind: "identifier" | "escapedIdentifier" | "string" | "number" | "punctuation"
  readonly text: string
  /** Where the token is written in the statement: `sql.slice(start, end)`, quotes included. */
  readonly start: number
  readonly end: number
}

const WORD = /[A-Za-z_$][A-Za-z0-9_$]*/y
const NUMBER = /[0-9][A-Za-z0-9_.]*/y
const HEREDOC = /\$([A-Za-z0-9_]*)\$/y
const ASCII_SPACE = /[ \t\n\r\f\v]/

/** The typographic quotes the engine reads, each with its closing mark. */
const TYPOGRAPHIC: Record<string, { readonly close: string; readonly kind: Token["kind"] }> = {
  "\u2018": { close: "\u2019", kind: "string" },
  "\u201C": { close: "\u201D", kind: "identifier" }
}

const isSpace = (c: string): boolean =>
  ASCII_SPACE.test(c) || (c.charCodeAt(0) > 0x7f && TYPOGRAPHIC[c] === undefined)

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

/** The end of a `/* … *\/` comment opened at `from`, counting nested openings. */
const commentEnd = (sql: string, from: number): number => {
  let depth = 0
  let j = from
  while (j < sql.length) {
    if (sql[j] === "/" && sql[j + 1] === "*") {
      depth++
      j += 2
    } else if (sql[j] === "*" && sql[j + 1] === "/") {
      depth--
      j += 2
      if (depth === 0) return j
    } else j++
  }
  return sql.length
}

export const tokens = (sql: string): ReadonlyArray<Token> => {
  const out: Array<Token> = []
  let i = 0
  while (i < sql.length) {
    const c = sql[i]!
    const typographic = TYPOGRAPHIC[c]
    if (typographic !== undefined) {
      const end = sql.indexOf(typographic.close, i + 1)
      const stop = end === -1 ? sql.length : end
      out.push({
        kind: typographic.kind,
        text: sql.slice(i + 1, stop),
        start: i,
        end: Math.min(stop + 1, sql.length)
      })
      i = stop + 1
    } else if (isSpace(c)) i++
    else if ((c === "-" && sql[i + 1] === "-") || (c === "#" && /[ !]/.test(sql[i + 1] ?? ""))) {
      const end = sql.indexOf("\n", i)
      i = end === -1 ? sql.length : end + 1
    } else if (c === "/" && sql[i + 1] === "*") {
      i = commentEnd(sql, i)
    } else if (c === "'" || c === '"' || c === "`") {
      const end = closing(sql, i + 1, c)
      const body = sql.slice(i + 1, end)
      const kind = c === "'" ? "string" : body.includes("\\") ? "escapedIdentifier" : "identifier"
      out.push({
        kind,
        text: body.replaceAll(c + c, c),
        start: i,
        end: Math.min(end + 1, sql.length)
      })
      i = end + 1
    } else if (c === "$" && heredocAt(sql, i)) {
      const tag = sql.slice(i, HEREDOC.lastIndex)
      const end = sql.indexOf(tag, HEREDOC.lastIndex)
      const stop = end === -1 ? sql.length : end + tag.length
      out.push({
        kind: "string",
        text: sql.slice(HEREDOC.lastIndex, end === -1 ? sql.length : end),
        start: i,
        end: stop
      })
      i = stop
    } else if (((WORD.lastIndex = i), WORD.test(sql))) {
      out.push({
        kind: "identifier",
        text: sql.slice(i, WORD.lastIndex),
        start: i,
        end: WORD.lastIndex
      })
      i = WORD.lastIndex
    } else if (((NUMBER.lastIndex = i), NUMBER.test(sql))) {
      out.push({
        kind: "number",
        text: sql.slice(i, NUMBER.lastIndex),
        start: i,
        end: NUMBER.lastIndex
      })
      i = NUMBER.lastIndex
    } else {
      out.push({ kind: "punctuation", text: c, start: i, end: i + 1 })
      i++
    }
  }
  return out
}
