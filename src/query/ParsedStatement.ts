/**
 * A user's statement lexed once (SqlTokens.ts): the guard, the hints and the request log
 * all read this one value, so a statement costs one pass of the lexer however many of
 * them look at it.
 */
import { referencesIn } from "./HintsReferences.js"
import type { References } from "./HintsReferences.js"
import { tokens } from "./SqlTokens.js"
import type { Token } from "./SqlTokens.js"

export interface ParsedStatement {
  readonly sql: string
  readonly tokens: ReadonlyArray<Token>
  /** The word the statement starts with (`select`, `explain` …), past any `(`. */
  readonly first: Token | undefined
  /** The tables and names it refers to, for the hints and the request log. */
  readonly references: References
}

export const parseStatement = (sql: string): ParsedStatement => {
  const list = tokens(sql)
  return {
    sql,
    tokens: list,
    first: list.find((token) => token.text !== "("),
    references: referencesIn(list)
  }
}
