/** Numbers printed as Prometheus (Go) prints them. */

/** A sample value in JSON: `strconv.FormatFloat(v, 'g'-like)` with a two-digit exponent. */
export const goSampleValue = (value: number): string => {
  if (Number.isNaN(value)) return "NaN"
  if (value === Infinity) return "+Inf"
  if (value === -Infinity) return "-Inf"
  if (Object.is(value, -0)) return "-0"
  const text = String(value)
  // Go writes at least two exponent digits; most values have no exponent at all.
  return text.includes("e") ? text.replace(/e([+-])(\d)$/, "e$10$2") : text
}

/** `strconv.FormatFloat(v, 'f', -1, 64)`: the shortest digits, never an exponent. */
export const goPlainDecimal = (value: number): string => {
  if (Number.isNaN(value)) return "NaN"
  if (value === Infinity) return "+Inf"
  if (value === -Infinity) return "-Inf"
  if (Object.is(value, -0)) return "-0"
  const text = String(value)
  const match = /^(-?)(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(text)
  if (!match) return text
  const [, sign, head, tail = "", exponentText] = match
  const digits = head! + tail
  const exponent = Number(exponentText)
  if (exponent >= 0) return sign + digits.padEnd(exponent + 1, "0")
  return `${sign}0.${"0".repeat(-exponent - 1)}${digits}`
}

const NAMED_ESCAPES: Readonly<Record<string, string>> = {
  '"': '\\"',
  "\\": "\\\\",
  "\x07": "\\a",
  "\b": "\\b",
  "\f": "\\f",
  "\n": "\\n",
  "\r": "\\r",
  "\t": "\\t",
  "\v": "\\v"
}

const PRINTABLE = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u

const hex = (value: number, width: number) => value.toString(16).padStart(width, "0")

/** Go's `strconv.Quote`: printable characters as they are, the rest escaped. */
export const goQuote = (value: string): string => {
  let out = '"'
  for (const char of value) {
    // A lone surrogate cannot come from UTF-8 text: Go would hold U+FFFD there.
    const lone = char.length === 1 && char >= "\ud800" && char <= "\udfff"
    const ch = lone ? "\ufffd" : char
    const named = NAMED_ESCAPES[ch]
    const code = ch.codePointAt(0)!
    if (named !== undefined) out += named
    else if (PRINTABLE.test(ch)) out += ch
    else if (code < 0x80) out += `\\x${hex(code, 2)}`
    else if (code < 0x10000) out += `\\u${hex(code, 4)}`
    else out += `\\U${hex(code, 8)}`
  }
  return `${out}"`
}
