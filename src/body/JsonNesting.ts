/**
 * The one limit on how deeply JSON may nest. `JSON.parse` itself copes with any depth,
 * but everything that walks the parsed value afterwards (schema decoding, the messages
 * of a failed decode, flatteners, `JSON.stringify`) recurses, and a body nested some
 * thousands of levels deep would exhaust the stack there: a 500, possibly half-way
 * through an insert. Bodies are checked as text, before they are parsed, so a refused
 * one costs one linear scan and nothing else.
 */

/** Far beyond any record or export request seen in practice. */
export const MAX_JSON_DEPTH = 128

export const tooDeepMessage = `JSON nested deeper than ${MAX_JSON_DEPTH} levels`

/** Whether `text` (JSON or not) opens more than `MAX_JSON_DEPTH` arrays or objects at once. */
export const nestsTooDeep = (text: string): boolean => {
  let depth = 0
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (inString) {
      if (c === 0x5c) i++
      else if (c === 0x22) inString = false
    } else if (c === 0x22) inString = true
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > MAX_JSON_DEPTH) return true
    } else if (c === 0x5d || c === 0x7d) depth--
  }
  return false
}
