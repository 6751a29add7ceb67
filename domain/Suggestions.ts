/**
 * The name a refusal offers for a mistyped one ("Did you mean SELECT?"): the API's SQL
 * refusals (a statement, a function) and the command line's usage errors (an option)
 * suggest alike, by the fewest single-character edits.
 */

/** Single-character insertions, deletions and substitutions that turn `a` into `b`. */
export const editDistance = (a: string, b: string): number => {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j)
  for (let i = 1; i <= a.length; i++) {
    const current = [i]
    for (let j = 1; j <= b.length; j++)
      current[j] = Math.min(
        previous[j]! + 1,
        current[j - 1]! + 1,
        previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1)
      )
    previous = current
  }
  return previous[b.length]!
}

/**
 * The candidate fewest edits from `word` (case ignored), if one is within `maxEdits`; of
 * equally near ones, the first.
 */
export const nearest = (
  word: string,
  candidates: Iterable<string>,
  maxEdits = 2
): string | undefined => {
  const key = word.toLowerCase()
  let best: { readonly name: string; readonly edits: number } | undefined
  for (const candidate of candidates) {
    if (Math.abs(candidate.length - key.length) > maxEdits) continue
    const edits = editDistance(key, candidate.toLowerCase())
    if (edits <= maxEdits && (best === undefined || edits < best.edits))
      best = { name: candidate, edits }
  }
  return best?.name
}
