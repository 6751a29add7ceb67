/**
 * Field names with `*` wildcards in `fields`, `table` and `rename` (spl.md §1): `host*`
 * names every field of the stage that starts with `host`; `EU* AS EMEA*` carries what
 * each `*` matched into the new name, so both sides need as many `*`. Wildcards match
 * the fields the stage knows by name (metadata, results of eval/stats/rename, fields
 * named earlier); a field found only in an event's stored JSON is matched when named.
 */
export const isPattern = (name: string) => name.includes("*")

const regexOf = (pattern: string) =>
  new RegExp(
    `^${pattern
      .split("*")
      .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
      .join("(.*)")}$`,
    "s"
  )

/** The names `pattern` matches, in the order given. */
export const matching = (pattern: string, names: ReadonlyArray<string>) => {
  const regex = regexOf(pattern)
  return names.filter((name) => regex.test(name))
}

/** `name` renamed by `from AS to`, null when `from` does not match it. */
export const renamedBy = (from: string, to: string, name: string): string | null => {
  const captured = regexOf(from).exec(name)
  if (captured === null) return null
  const parts = to.split("*")
  return parts.reduce((out, part, i) => out + (i === 0 ? "" : (captured[i] ?? "")) + part, "")
}

export const wildcards = (name: string) => name.split("*").length - 1
