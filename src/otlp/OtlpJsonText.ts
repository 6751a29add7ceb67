/**
 * OTLP/JSON text to plain JSON values without losing 64-bit integers: nanosecond times
 * and counters may arrive as bare numbers larger than 2^53, which `JSON.parse` would
 * round. Such integer literals are quoted first (the protobuf JSON mapping accepts
 * 64-bit integers as strings), so every digit survives.
 */

const QUOTE = 34
const BACKSLASH = 92
const MINUS = 45

const isDigit = (code: number) => code >= 48 && code <= 57

/** Integer literals with more digits than this may not be exact as JS numbers. */
const SAFE_DIGITS = 15

/** `text` with long integer literals outside strings turned into JSON strings. */
export const quoteLongIntegers = (text: string): string => {
  if (!/\d{16}/.test(text)) return text
  const parts: Array<string> = []
  let copied = 0
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    if (inString) {
      if (code === BACKSLASH) i++
      else if (code === QUOTE) inString = false
      continue
    }
    if (code === QUOTE) {
      inString = true
      continue
    }
    if (!isDigit(code) && code !== MINUS) continue
    let end = i + 1
    while (end < text.length && isDigit(text.charCodeAt(end))) end++
    const next = text.charCodeAt(end)
    // 46 '.', 101 'e', 69 'E': a fraction or exponent is a double; leave it to JSON.parse.
    const integer = next !== 46 && next !== 101 && next !== 69
    const digits = end - i - (code === MINUS ? 1 : 0)
    if (integer && digits > SAFE_DIGITS) {
      parts.push(text.slice(copied, i), '"', text.slice(i, end), '"')
      copied = end
    }
    i = end - 1
  }
  if (copied === 0) return text
  parts.push(text.slice(copied))
  return parts.join("")
}
