/**
 * What a query refers to: the tables it reads (FROM/JOIN, and the table DESCRIBE, EXISTS
 * and SHOW CREATE name; bare or `db.t`), where it names a database, the dotted names it
 * mentions, and whether it expands `*`. Read from the same tokens as the guard, so
 * strings and comments never count. For hints over-matching only costs a superfluous
 * hint; nothing here decides what a query may do.
 */
import type { Token } from "./SqlTokens.js"

export interface TableReference {
  /** The database written before the table (`db.t`), if any. */
  readonly database?: string
  readonly table: string
}

export interface References {
  readonly tables: ReadonlyArray<TableReference>
  /**
   * The tokens (by index) that name a database where a table or database is expected:
   * `db` of `FROM db.t`, of `DESCRIBE db.t`, of `SHOW TABLES FROM db`. Only there: in an
   * expression `a.b` is a table's column or a path into a JSON column.
   */
  readonly databaseTokens: ReadonlyArray<number>
  /** Every dotted name in the query (`a.b.c`, `` `a.b`.c ``), joined by dots. */
  readonly names: ReadonlySet<string>
  readonly star: boolean
}

const TABLE_KEYWORDS = new Set(["from", "join"])
const SHOW_MODIFIERS = new Set(["full", "extended", "temporary"])
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

interface Found {
  readonly tables: Array<TableReference>
  readonly databaseTokens: Array<number>
}

/** The table (`t` or `db.t`) named at `j`, if a table is named there: the index after it. */
const tableAt = (list: ReadonlyArray<Token>, j: number, found: Found): number | undefined => {
  if (!isName(list[j])) return undefined
  const { parts, next } = dottedAt(list, j)
  if (list[next]?.text === "(" || parts.length > 2) return undefined
  if (parts.length === 2) {
    found.tables.push({ database: parts[0]!, table: parts[1]! })
    found.databaseTokens.push(j)
  } else found.tables.push({ table: parts[0]! })
  return next
}

/** The tables named after FROM/JOIN, including `FROM a, b`; table functions are skipped. */
const tablesAfter = (list: ReadonlyArray<Token>, i: number, found: Found): void => {
  let j = i
  for (;;) {
    const next = tableAt(list, j, found)
    if (next === undefined) break
    // Skip an alias (`t AS x`, `t x`) to reach a following `, other`.
    let k = next
    if (list[k]?.text.toLowerCase() === "as") k++
    if (isName(list[k]) && list[k + 1]?.text === ",") k++
    if (list[k]?.text !== ",") break
    j = k + 1
  }
}

const word = (list: ReadonlyArray<Token>, i: number) => list[i]?.text.toLowerCase()

/** SHOW forms whose first FROM/IN names a table (a second one names its database). */
const SHOW_OF_TABLE = new Set(["columns", "fields", "index", "indexes", "indices", "keys"])

/**
 * What a statement's own first words name: `DESCRIBE [TABLE] t`, `EXISTS [TABLE] t`,
 * `SHOW CREATE [TABLE|DATABASE] …`, `SHOW TABLES FROM|IN db`,
 * `SHOW COLUMNS FROM|IN t [FROM|IN db]`.
 */
const statementNames = (list: ReadonlyArray<Token>, first: number, found: Found): void => {
  const kind = word(list, first)
  if (kind === "describe" || kind === "desc" || kind === "exists") {
    const at = word(list, first + 1) === "table" ? first + 2 : first + 1
    tableAt(list, at, found)
    return
  }
  if (kind !== "show") return
  let i = first + 1
  while (SHOW_MODIFIERS.has(word(list, i) ?? "")) i++
  const what = word(list, i)
  if (what === "create") {
    const object = word(list, i + 1)
    if (object === "database" && isName(list[i + 2])) found.databaseTokens.push(i + 2)
    else tableAt(list, object === "table" || object === "view" ? i + 2 : i + 1, found)
    return
  }
  const froms: Array<number> = []
  for (let j = i + 1; j + 1 < list.length; j++) {
    const w = word(list, j)
    if ((w === "from" || w === "in") && isName(list[j + 1])) froms.push(j + 1)
  }
  if (SHOW_OF_TABLE.has(what ?? "")) {
    if (froms[0] !== undefined) tableAt(list, froms[0], found)
    if (froms[1] !== undefined) found.databaseTokens.push(froms[1])
  } else if (froms[0] !== undefined) found.databaseTokens.push(froms[0])
}

/** The references of a statement lexed into `list`. */
export const referencesIn = (list: ReadonlyArray<Token>): References => {
  const found: Found = { tables: [], databaseTokens: [] }
  const first = list.findIndex((token) => token.text !== "(")
  statementNames(list, first, found)
  // A SHOW's FROM names what it lists, read above; it reads no table.
  const show = word(list, first) === "show"
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
    if (!show && TABLE_KEYWORDS.has(token.text.toLowerCase())) tablesAfter(list, i + 1, found)
    // Each suffix, so `t.price` and `alias.request.size` reach the column name.
    const { parts } = dottedAt(list, i)
    for (let from = 0; from < parts.length; from++) {
      names.add(parts.slice(from).join("."))
    }
  }
  return { tables: found.tables, databaseTokens: found.databaseTokens, names, star }
}
