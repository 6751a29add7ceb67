/**
 * Bare terms and quoted phrases match `_raw` by segments: a term matches
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

/** RE2 text matching `c` exactly: ASCII punctuation escaped, control characters in hex. */
const exactly = (c: string) =>
  control(c) ?? (/[\x21-\x2f\x3a-\x40\x5b-\x60\x7b-\x7e]/.test(c) ? `\\${c}` : c)

/**
 * RE2 text matching, in ASCII-lowercased text, what `(?i)c` matches in the original:
 * the two ASCII letters whose case folding reaches beyond ASCII keep their partners
 * (KELVIN SIGN for k, LONG S for s), which lowercasing ASCII leaves as they are.
 */
const loweredExactly = (c: string) => {
  const lower = c.toLowerCase()
  return lower === "k" ? "(?:k|\\x{212a})" : lower === "s" ? "(?:s|\\x{17f})" : exactly(lower)
}

/**
 * How a term or phrase is tested: an RE2 `pattern` over `_raw`, or over `lower(_raw)`
 * when `lowered`. An ASCII term is matched case-sensitively in the lowercased text: the
 * engine then finds the pattern's longest literal with a plain substring search before
 * running RE2, which it cannot do for a `(?i)` pattern, and the statement needs no
 * second test (each test in a statement costs the engine's planning too, which shows
 * on a search that reads a few granules). The price is lowercasing every event read: a
 * scan of the whole window for a rare term costs somewhat more than
 * `positionCaseInsensitive` first. A term with other characters keeps `(?i)` (Unicode
 * case folding) and a `prefilter` literal for `positionCaseInsensitive`.
 */
export interface SegmentTest {
  readonly pattern: string
  readonly lowered: boolean
  readonly prefilter: string | null
}

/** Null when the term matches everything. */
export const segmentTest = (text: string): SegmentTest | null => {
  if (text.replace(/\*/g, "") === "") return null
  const lowered = /^[\x00-\x7f]*$/.test(text)
  const literal = (piece: string) => [...piece].map(lowered ? loweredExactly : exactly).join("")
  const body = text.split("*").map(literal).join(`${WITHIN_MAJOR}*`)
  const first = text[0]!
  const last = text[text.length - 1]!
  const left = first === "*" || isBreaker(first) ? "" : `(?:^|${BREAKER})`
  const right = last === "*" || isBreaker(last) ? "" : `(?:$|${BREAKER})`
  return lowered
    ? { pattern: `${left}${body}${right}`, lowered, prefilter: null }
    : { pattern: `(?i)${left}${body}${right}`, lowered, prefilter: segmentPrefilter(text) }
}

/**
 * A literal a match of `text` must contain, for a cheap `positionCaseInsensitive` test
 * before a `(?i)` regular expression (several times faster over many events): the longest
 * run of ASCII within one `*`-free piece, without k and s, whose case-insensitive matches
 * in RE2 include non-ASCII letters (K, ſ) that an ASCII test would miss. Null
 * when no run of 3 characters is left.
 */
const segmentPrefilter = (text: string): string | null => {
  const runs = text.split(/[^\x20-\x7e]|[*kKsS]/)
  const longest = runs.reduce((a, b) => (b.length > a.length ? b : a), "")
  return longest.length >= 3 ? longest : null
}
