/**
 * A label matcher tried on a value in this process. Storage matches in SQL (SeriesSql.ts);
 * the parser and `info()` need the same answer for one value, with Prometheus's anchoring
 * and `.` matching newlines.
 */
import type { Matcher } from "./Ast.js"

/** The matcher's pattern as a regular expression, or `undefined` when it is not one. */
export const matcherRegex = (source: string) => {
  try {
    return new RegExp(`^(?:${source})$`, "s")
  } catch {
    return undefined
  }
}

export const matcherMatches = (m: Matcher, value: string): boolean => {
  switch (m.type) {
    case "=":
      return m.value === value
    case "!=":
      return m.value !== value
    case "=~":
      return matcherRegex(m.value)?.test(value) ?? false
    case "!~":
      return !(matcherRegex(m.value)?.test(value) ?? true)
  }
}
