/**
 * Bare terms and quoted phrases match `_raw` by segments (spl.md §1): a term matches
 * where it stands between breakers (major or minor) or the ends of the text, case
 * folded; `*` matches within a major segment (`err*` is a prefix match). A term that
 * itself starts or ends with a breaker needs no boundary on that side.
 */
const MAJOR = " \t\r\n[]<>(){}|!;,'\"*&?+"
const MINOR = "/:=@.-$#%\\_"

/** Control characters as RE2 hex escapes, so the pattern text holds none. */
const control = (c: string) =>
  c < " " ? `\\x{${c.charCodeAt(0).toString(16).padStart(2, "0")}}` : undefined

const classOf = (chars: string) =>
  `[${[...chars].map((c) => control(c) ?? (/[\\\]\[^\-]/.test(c) ? `\\${c}` : c)).join("")}]`

const BREAKER = classOf(MAJOR + MINOR)
const WITHIN_MAJOR = `[^${classOf(MAJOR).slice(1)}`

const isBreaker = (c: string) => MAJOR.includes(c) || MINOR.includes(c)

/** RE2 text matching `literal` exactly: ASCII punctuation escaped, control characters in hex. */
const escapeRegex = (literal: string) =>
  [...literal]
    .map((c) => control(c) ?? (/[\x21-\x2f\x3a-\x40\x5b-\x60\x7b-\x7e]/.test(c) ? `\\${c}` : c))
    .join("")

/** The case-insensitive RE2 pattern of a term or phrase; null when it matches everything. */
export const segmentPattern = (text: string): string | null => {
  const body = text.split("*").map(escapeRegex).join(`${WITHIN_MAJOR}*`)
  if (text.replace(/\*/g, "") === "") return null
  const first = text[0]!
  const last = text[text.length - 1]!
  const left = first === "*" || isBreaker(first) ? "" : `(?:^|${BREAKER})`
  const right = last === "*" || isBreaker(last) ? "" : `(?:$|${BREAKER})`
  return `(?i)${left}${body}${right}`
}

/**
 * A literal a match of `text` must contain, for a cheap `positionCaseInsensitive` test
 * before the regular expression (about 3× faster over 1 M events, measured): the longest
 * run of ASCII within one `*`-free piece, without k and s, whose case-insensitive
 * matches in RE2 include non-ASCII letters (K, ſ) that an ASCII test would miss. Null
 * when no run of 3 characters is left.
 */
export const segmentPrefilter = (text: string): string | null => {
  const runs = text.split(/[^\x20-\x7e]|[*kKsS]/)
  const longest = runs.reduce((a, b) => (b.length > a.length ? b : a), "")
  return longest.length >= 3 ? longest : null
}
