/**
 * SPL text to its syntax tree (the generated parser, grammar/spl.peggy), with a syntax
 * error refused at its position, naming the command it is in.
 */
import type { Pipeline } from "./Ast.js"
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
    const command = commandAt(spl, position)
    return refuse(
      command,
      position,
      `syntax error in ${command} at position ${position}: ${error.message}`
    )
  }
}
