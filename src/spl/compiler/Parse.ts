/**
 * SPL text to its syntax tree (the generated parser, grammar/spl.peggy), with a syntax
 * error refused at its position, naming the command it is in.
 */
import type { Pipeline } from "./Ast.js"
import type { Expectation } from "./grammar/SplParser.js"
import { parse, SyntaxError as PeggySyntaxError } from "./grammar/SplParser.js"
import { refuse } from "./Refusal.js"

/** Longest SPL text and deepest parenthesis nesting compiled (the parser recurses). */
export const MAX_SPL_LENGTH = 16_384
export const MAX_NESTING = 64

/** The command whose text holds `position`: the word after the last `|` outside quotes. */
export const commandAt = (spl: string, position: number): string => {
  let start = -1
  let quote: string | null = null
  for (let i = 0; i < Math.min(position, spl.length); i++) {
    const c = spl[i]
    if (quote !== null) {
      if (c === "\\") i++
      else if (c === quote) quote = null
    } else if (c === '"' || c === "'") quote = c
    else if (c === "|") start = i
  }
  if (start === -1) return "search"
  return /^\s*([A-Za-z_][A-Za-z0-9_]*)/.exec(spl.slice(start + 1))?.[1]?.toLowerCase() ?? "search"
}

const nesting = (spl: string) => {
  let depth = 0
  let deepest = 0
  for (const c of spl) {
    if (c === "(") deepest = Math.max(deepest, ++depth)
    else if (c === ")") depth = Math.max(0, depth - 1)
  }
  return deepest
}

/** An expected token as a person names it; `undefined` for whitespace, said by the rest. */
const expectedText = (expectation: Expectation): string | undefined => {
  switch (expectation.type) {
    case "literal":
      return expectation.text === '"' || expectation.text === "'"
        ? "a quoted value"
        : /^[=<>!]=?$/.test(expectation.text)
          ? "a comparison"
          : JSON.stringify(expectation.text)
    case "class": {
      const parts = expectation.parts.flat().join("")
      if (!expectation.inverted && /^[ \t\r\n]+$/.test(parts)) return undefined
      if (expectation.inverted || /[a-z]/i.test(parts)) return "a word"
      if (/[0-9]/.test(parts)) return "a number"
      if (/[=<>]/.test(parts)) return "a comparison"
      return `one of ${parts}`
    }
    case "end":
      return "the end of the search"
    case "any":
      return "more of the search"
    case "other":
      return expectation.description
  }
}

/**
 * The parser's refusal in words: what could come next and what came instead. Its own
 * message lists character classes (`[A-Za-z_@]`, `[^ \t\r\n()|"=<>!,]`) and whitespace.
 */
const syntaxError = (error: PeggySyntaxError) => {
  const ended = error.found === null || error.found === undefined
  // Only inside a quoted value is a backslash a way on.
  if (ended && error.expected.some((e) => e.type === "literal" && e.text === "\\"))
    return "syntax error: a quoted value is not closed"
  const named = new Set(error.expected.map(expectedText))
  // A number's own decimal point, said by "a number".
  if (named.has("a number")) named.delete('"."')
  const expected = [...named].filter((text): text is string => text !== undefined)
  const found = ended ? "the end of the search" : JSON.stringify(error.found)
  if (expected.length === 0) return `syntax error: more was expected, found ${found}`
  const list =
    expected.length === 1
      ? expected[0]
      : `${expected.slice(0, -1).join(", ")} or ${expected[expected.length - 1]}`
  return `syntax error: expected ${list}, found ${found}`
}

export const parsePipeline = (spl: string): Pipeline => {
  if (spl.length > MAX_SPL_LENGTH)
    refuse("search", MAX_SPL_LENGTH, `the search is longer than ${MAX_SPL_LENGTH} characters`)
  if (nesting(spl) > MAX_NESTING)
    refuse("search", 0, `the search nests parentheses deeper than ${MAX_NESTING}`)
  try {
    // The grammar's actions build exactly the shapes of Ast.ts.
    return parse(spl) as Pipeline
  } catch (error) {
    // The parser recurses once per prefix operator (`- - - 1`, `NOT NOT a`).
    if (error instanceof RangeError)
      return refuse("search", 0, "the search nests operators too deeply")
    if (!(error instanceof PeggySyntaxError)) throw error
    const position = error.location.start.offset
    return refuse(commandAt(spl, position), position, syntaxError(error))
  }
}
