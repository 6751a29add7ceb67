/**
 * Field names with `*` wildcards in `fields`, `table`, `rename` and `stats … by`:
 * `host*` names every field of the stage that starts with `host`; `EU* AS EMEA*`
 * carries what each `*` matched into the new name, so both sides need as many `*`.
 * Wildcards match the fields the stage knows by name (metadata, results of
 * eval/stats/rename, fields named earlier) and, while the events' stored fields are
 * readable, every field the events hold (`JsonFields.stored`).
 *
 * Matching never backtracks: a regular expression built from `a*a*a*…b` takes time
 * growing as the name's length to the power of its `*`s, and one search held the
 * server for seconds. Here each literal piece between `*`s is placed once, from the
 * right, at its last possible place: O(name × pattern) at worst.
 */
import type { Rows } from "./Rows.js"

export const isPattern = (name: string) => name.includes("*")

/**
 * What each `*` of `pattern` matched in `name`, null when it does not match. Each `*`
 * takes as much as it can, the leftmost first (as `^(.*)…(.*)$` would): placing every
 * piece at its last possible place, right to left, gives each `*` its longest text.
 */
export const captures = (pattern: string, name: string): ReadonlyArray<string> | null => {
  const pieces = pattern.split("*")
  const first = pieces[0]!
  const last = pieces[pieces.length - 1]!
  if (pieces.length === 1) return name === pattern ? [] : null
  if (name.length < first.length + last.length) return null
  if (!name.startsWith(first) || !name.endsWith(last)) return null
  const starts = new Array<number>(pieces.length)
  starts[pieces.length - 1] = name.length - last.length
  for (let i = pieces.length - 2; i >= 1; i--) {
    const latest = starts[i + 1]! - pieces[i]!.length
    const at = latest < first.length ? -1 : name.lastIndexOf(pieces[i]!, latest)
    if (at < first.length) return null
    starts[i] = at
  }
  starts[0] = 0
  const matched: Array<string> = []
  for (let i = 0; i < pieces.length - 1; i++)
    matched.push(name.slice(starts[i]! + pieces[i]!.length, starts[i + 1]!))
  return matched
}

/** The names `pattern` matches, in the order given. */
export const matching = (pattern: string, names: ReadonlyArray<string>) =>
  names.filter((name) => captures(pattern, name) !== null)

/**
 * The fields a wildcard of a stage over `rows` can match: the visible ones in their
 * order, then the events' stored fields not renamed away, by name.
 */
export const fieldNames = (rows: Rows): ReadonlyArray<string> => {
  const visible = rows.columns.map((c) => c.name)
  if (!rows.raw || rows.json === undefined) return visible
  const shown = new Set(visible)
  const stored = rows.json.stored.filter((name) => !shown.has(name) && !rows.removed.has(name))
  return [...visible, ...stored]
}

/** `fields` with each pattern replaced by the names it matches in `rows`, each once. */
export const expanded = (rows: Rows, fields: ReadonlyArray<string>) => {
  const names = fields.some(isPattern) ? fieldNames(rows) : []
  return [
    ...new Set(fields.flatMap((field) => (isPattern(field) ? matching(field, names) : [field])))
  ]
}

/** `name` renamed by `from AS to`, null when `from` does not match it. */
export const renamedBy = (from: string, to: string, name: string): string | null => {
  const matched = captures(from, name)
  if (matched === null) return null
  const parts = to.split("*")
  return parts.reduce((out, part, i) => out + (i === 0 ? "" : (matched[i - 1] ?? "")) + part, "")
}

export const wildcards = (name: string) => name.split("*").length - 1
