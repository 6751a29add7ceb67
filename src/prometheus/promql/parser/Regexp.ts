/**
 * A caller's regular expression, taken as Prometheus takes one: RE2 syntax (Go's
 * `regexp`), matched against the whole value, `.` matching newlines. RE2 matches in time
 * linear in the value whatever the pattern; JavaScript's backtracking `RegExp` took
 * seconds on `(a|a)+b` over 26 characters, holding the event loop.
 */
import { RE2JS } from "re2js"

/** Go's `regexp.Compile` error text: `error parsing regexp: missing closing ): ...`. */
export class RegexpSyntaxError extends Error {}

// Patterns repeat (one matcher is tried on every series); a caller's stream of distinct
// ones stays within this many.
const KEPT = 256
const kept = new Map<string, RE2JS>()

/** `^(?:source)$` compiled; throws `RegexpSyntaxError`. */
export const anchoredRegexp = (source: string): RE2JS => {
  const known = kept.get(source)
  if (known !== undefined) return known
  const anchored = `^(?:${source})$`
  let regexp: RE2JS
  try {
    // Without the flag first, for Go's error text: the flag would show in it as `(?s)`.
    RE2JS.compile(anchored)
    regexp = RE2JS.compile(anchored, RE2JS.DOTALL)
  } catch (error) {
    throw new RegexpSyntaxError(error instanceof Error ? error.message : String(error))
  }
  if (kept.size >= KEPT) kept.delete(kept.keys().next().value!)
  kept.set(source, regexp)
  return regexp
}
