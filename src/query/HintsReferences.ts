/**
 * What a query refers to, as far as hints need it: the tables it reads (FROM/JOIN, bare
 * or `db.t`), the dotted names it mentions, and whether it expands `*`. Read from the
 * same tokens as the guard, so strings and comments never count. Over-matching only
 * costs a superfluous hint; nothing here decides what a query may do.
 */
import type { Token } from "./SqlTokens.js"

export interface TableReference {
  /** The database written before the table (`db.t`), if any. */
  readonly database?: string
  readonly table: string
}

export interface References {
  readonly tables: ReadonlyArray<TableReference>
  /** Every dotted name in the query (`a.b.c`, `` `a.b`.c ``), joined by dots. */
  readonly names: ReadonlySet<string>
  readonly star: boolean
}

const TABLE_KEYWORDS = new Set(["from", "join"])
// `*` after these expands columns; after anything else it multiplies or counts.
const STAR_AFTER = new Set(["select", "distinct", ",", "."])

const isName = (token: Token | undefined): token is Token => token?.kind === "identifier"

/** The dotted name starting at `i`: its parts and the index after it. */
const dottedAt = (list: ReadonlyArray<Token>, i: number) => {
  const parts = [list[i]!.text]
  let j = i + 1
  while (list[j]?.text === "." && isName(list[j + 1])) {
    parts.push(list[j + 1]!.text)
    j += 2
  }
  return { parts, next: j }
}

/** The tables named after FROM/JOIN, including `FROM a, b`; table functions are skipped. */
const tablesAfter = (list: ReadonlyArray<Token>, i: number): Array<TableReference> => {
  const found: Array<TableReference> = []
  let j = i
  while (isName(list[j])) {
    const { parts, next } = dottedAt(list, j)
    if (list[next]?.text === "(" || parts.length > 2) break
    found.push(
      parts.length === 2 ? { database: parts[0]!, table: parts[1]! } : { table: parts[0]! }
    )
    // Skip an alias (`t AS x`, `t x`) to reach a following `, other`.
    let k = next
    if (list[k]?.text.toLowerCase() === "as") k++
    if (isName(list[k]) && list[k + 1]?.text === ",") k++
    if (list[k]?.text !== ",") break
    j = k + 1
  }
  return found
}

/** The references of a statement lexed into `list`. */
export const referencesIn = (list: ReadonlyArray<Token>): References => {
  const tables: Array<TableReference> = []
  const names = new Set<string>()
  let star = false
  for (let i = 0; i < list.length; i++) {
    const token = list[i]!
    if (token.kind === "punctuation" && token.text === "*") {
      const before = list[i - 1]?.text.toLowerCase() ?? ""
      if (STAR_AFTER.has(before)) star = true
      continue
    }
    if (!isName(token)) continue
    if (TABLE_KEYWORDS.has(token.text.toLowerCase())) tables.push(...tablesAfter(list, i + 1))
    // Each suffix, so `t.price` and `alias.request.size` reach the column name.
    const { parts } = dottedAt(list, i)
    for (let from = 0; from < parts.length; from++) {
      names.add(parts.slice(from).join("."))
    }
  }
  return { tables, names, star }
}
