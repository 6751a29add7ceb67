/**
 * A syntax error as Prometheus's parser words it, from where lezer's grammar stopped: a
 * parenthesis closed that was never opened, input that ends inside parentheses, brackets
 * or braces or after an operator, a call of a function that does not exist, or the token
 * that cannot come here, named as Prometheus's lexer names it (`identifier "x"`,
 * `<op:*>`, `<by>`, `colon ':'`). `offset` is where Prometheus places it (0-based), for its
 * `line:column`. What Prometheus adds about the context (`in grouping opts, expected …`)
 * is not said.
 */
import { FUNCTIONS } from "./Functions.js"

export interface SyntaxProblem {
  readonly message: string
  readonly offset: number
}

const KEYWORDS = new Set([
  "by",
  "without",
  "on",
  "ignoring",
  "group_left",
  "group_right",
  "bool",
  "offset"
])
const WORD_OPERATORS = new Set(["and", "or", "unless", "atan2"])
const AGGREGATORS = new Set([
  "sum",
  "avg",
  "count",
  "min",
  "max",
  "group",
  "stddev",
  "stdvar",
  "topk",
  "bottomk",
  "count_values",
  "quantile",
  "limitk",
  "limit_ratio"
])
const OPERATORS = ["==", "!=", ">=", "<=", "=~", "!~", "+", "-", "*", "/", "%", "^", ">", "<"]
// Punctuation as the parser quotes it; a colon is the lexer's (a subquery's second one).
const PUNCTUATION: Readonly<Record<string, string>> = {
  "(": '"("',
  ")": '")"',
  "[": '"["',
  "]": '"]"',
  "{": '"{"',
  "}": '"}"',
  ",": '","',
  "=": '"="',
  ":": "colon ':'"
}
const CLOSED_BY: Readonly<Record<string, string>> = {
  "(": "unclosed left parenthesis",
  "[": "unclosed left bracket",
  "{": "unexpected end of input inside braces"
}

const WORD = /[a-zA-Z_:][a-zA-Z0-9_:]*/y
const NUMBER = /(0[xX][0-9a-fA-F]+|[0-9]*\.?[0-9]+([eE][-+]?[0-9]+)?)([a-z]+[0-9a-z]*)*/y

/** The offset past a string literal starting at `start`. */
const pastString = (text: string, start: number) => {
  const quote = text[start]
  let i = start + 1
  while (i < text.length && text[i] !== quote) i += quote !== "`" && text[i] === "\\" ? 2 : 1
  return i + 1
}

/** The offset past blanks and comments from `start`. */
const pastBlanks = (text: string, start: number) => {
  let i = start
  while (i < text.length) {
    if (/\s/.test(text[i]!)) i++
    else if (text[i] === "#") while (i < text.length && text[i] !== "\n") i++
    else break
  }
  return i
}

const matchAt = (pattern: RegExp, text: string, at: number) => {
  pattern.lastIndex = at
  return pattern.exec(text)?.[0]
}

/** The token at `at`, as Prometheus's "unexpected …" names it. */
const tokenAt = (text: string, at: number): string => {
  if (text[at] === ":") return PUNCTUATION[":"]!
  const word = matchAt(WORD, text, at)
  if (word !== undefined) {
    if (KEYWORDS.has(word.toLowerCase())) return `<${word.toLowerCase()}>`
    if (WORD_OPERATORS.has(word.toLowerCase())) return `<op:${word.toLowerCase()}>`
    if (AGGREGATORS.has(word.toLowerCase())) return `<aggr:${word.toLowerCase()}>`
    return word.includes(":") ? `metric identifier "${word}"` : `identifier "${word}"`
  }
  const number = matchAt(NUMBER, text, at)
  if (number !== undefined)
    return /[a-z]$/.test(number) ? `duration "${number}"` : `number "${number}"`
  const quote = text[at]
  if (quote === '"' || quote === "'" || quote === "`")
    return `string ${JSON.stringify(text.slice(at, pastString(text, at)))}`
  const operator = OPERATORS.find((op) => text.startsWith(op, at))
  if (operator !== undefined) return `<op:${operator}>`
  return PUNCTUATION[text[at]!] ?? `character ${JSON.stringify(text[at])}`
}

/** A word before `(` that names no function, aggregation or keyword. */
const calledUnknown = (word: string) => {
  const lower = word.toLowerCase()
  return (
    /^[a-zA-Z_]/.test(word) &&
    !FUNCTIONS.has(word) &&
    !AGGREGATORS.has(lower) &&
    !KEYWORDS.has(lower) &&
    !WORD_OPERATORS.has(lower)
  )
}

/** The word ending just before `end` (blanks between), with where it starts. */
const wordBefore = (text: string, end: number) => {
  let i = end
  while (i > 0 && /\s/.test(text[i - 1]!)) i--
  let start = i
  while (start > 0 && /[a-zA-Z0-9_:]/.test(text[start - 1]!)) start--
  return start < i ? { word: text.slice(start, i), start } : undefined
}

/**
 * The parentheses, brackets and braces open once `text` is read up to `end`, or the
 * offset just past a `)` that closes none (Prometheus's lexer stops there).
 */
const openAt = (text: string, end: number): Array<string> | number => {
  const open: Array<string> = []
  let i = 0
  while (i < end && i < text.length) {
    const char = text[i]!
    if (char === "#") i = pastBlanks(text, i)
    else if (char === '"' || char === "'" || char === "`") i = pastString(text, i)
    else {
      if (char === "(" || char === "[" || char === "{") open.push(char)
      else if (char === ")" || char === "]" || char === "}") {
        if (char === ")" && open[open.length - 1] !== "(") return i + 1
        open.pop()
      }
      i++
    }
  }
  return open
}

/** How input that ends with `open` still open ends, as Prometheus's lexer says it. */
const endProblem = (text: string, open: ReadonlyArray<string>): SyntaxProblem => ({
  message: CLOSED_BY[open[open.length - 1] ?? ""] ?? "unexpected end of input",
  offset: text.length
})

/** The problem lezer's grammar found at offset `at` of `text`. */
export const syntaxProblem = (text: string, at: number): SyntaxProblem => {
  const open = openAt(text, at + 1)
  if (typeof open === "number") return { message: "unexpected right parenthesis ')'", offset: open }
  const start = pastBlanks(text, at)
  if (start >= text.length) return endProblem(text, open)
  if (text[start] === "(") {
    // A call is refused for its name once its parentheses close; before, the input ends.
    const atEnd = openAt(text, text.length)
    if (typeof atEnd !== "number" && atEnd.length > 0) return endProblem(text, atEnd)
    const before = wordBefore(text, start)
    if (before !== undefined && calledUnknown(before.word))
      return { message: `unknown function with name "${before.word}"`, offset: before.start }
  }
  return { message: `unexpected ${tokenAt(text, start)}`, offset: start }
}
