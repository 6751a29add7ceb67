/**
 * A label matcher tried on a value in this process. Storage matches in SQL (SeriesSql.ts);
 * the parser and `info()` need the same answer for one value (Regexp.ts).
 */
import type { Matcher } from "../parser/Ast.js"
import { anchoredRegexp, RegexpSyntaxError } from "../parser/Regexp.js"

/** The matcher's pattern as a regular expression, or `undefined` when it is not one. */
export const matcherRegex = (source: string) => {
  try {
    return anchoredRegexp(source)
  } catch (error) {
    if (error instanceof RegexpSyntaxError) return undefined
    throw error
  }
}

export const matcherMatches = (m: Matcher, value: string): boolean => {
  switch (m.type) {
    case "=":
      return m.value === value
    case "!=":
      return m.value !== value
    case "=~":
      return matcherRegex(m.value)?.testExact(value) ?? false
    case "!~":
      return !(matcherRegex(m.value)?.testExact(value) ?? true)
  }
}
