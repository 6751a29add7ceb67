/**
 * What the interactive shell needs to know about SQL text without parsing it: where a
 * statement ends (a `;` outside quotes and comments) and which word the cursor is on,
 * with the keywords and names that could complete it.
 */

/** Statements ended by `;` in `text`, and what follows the last one (still being typed). */
export const splitStatements = (text: string) => {
  const statements: Array<string> = []
  let start = 0
  let quote: string | undefined
  let comment: "line" | "block" | undefined
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!
    const next = text[i + 1]
    if (comment === "line") {
      if (c === "\n") comment = undefined
    } else if (comment === "block") {
      if (c === "*" && next === "/") ((comment = undefined), i++)
    } else if (quote !== undefined) {
      if (c === "\\") i++
      else if (c === quote) {
        if (next === quote) i++
        else quote = undefined
      }
    } else if (c === "'" || c === '"' || c === "`") quote = c
    else if (c === "-" && next === "-") comment = "line"
    else if (c === "/" && next === "*") ((comment = "block"), i++)
    else if (c === ";") {
      const statement = text.slice(start, i).trim()
      if (statement !== "") statements.push(statement)
      start = i + 1
    }
  }
  return { statements, rest: text.slice(start).replace(/^\s+/, "") }
}

const words = (text: string) => text.split(/\s+/).filter((w) => w !== "")

/** SQL keywords (completed in the case typed) and common functions (as they are spelled). */
export const KEYWORDS = words(
  "SELECT FROM WHERE GROUP BY ORDER HAVING LIMIT OFFSET WITH AS AND OR NOT IN IS NULL " +
    "LIKE ILIKE BETWEEN CASE WHEN THEN ELSE END DISTINCT JOIN LEFT RIGHT INNER OUTER FULL " +
    "CROSS ARRAY ON USING UNION ALL ASC DESC FORMAT SETTINGS SAMPLE FINAL PREWHERE " +
    "INTERVAL SHOW TABLES DATABASES DESCRIBE EXPLAIN USE EXISTS "
)
export const FUNCTIONS = words(
  "count countIf sum sumIf avg min max uniq uniqExact any argMax argMin groupArray " +
    "quantile quantiles toDate toDateTime toStartOfMinute toStartOfHour toStartOfDay " +
    "toStartOfInterval now today yesterday toString toUInt64 toFloat64 length lower upper " +
    "concat substring position match extract splitByChar arrayJoin if multiIf coalesce " +
    "round formatReadableSize JSONExtractString numbers "
)

const WORD = /[A-Za-z_][\w.]*$/

/**
 * Completions of the word before the cursor, in the case it is typed in (readline
 * appends the rest of a completion to what is typed: `sel` becomes `select`). Table
 * names follow FROM, JOIN, INTO, TABLE and DESCRIBE first; keywords otherwise.
 */
export const completionsOf = (
  line: string,
  tables: ReadonlyArray<string>
): [Array<string>, string] => {
  const word = WORD.exec(line)?.[0] ?? ""
  if (word === "") return [[], word]
  const before = line.slice(0, line.length - word.length)
  const afterTableKeyword = /\b(from|join|into|table|describe|desc)\s+$/i.test(before)
  const typedUpper = word === word.toUpperCase()
  const keywords = [...KEYWORDS.map((k) => (typedUpper ? k : k.toLowerCase())), ...FUNCTIONS]
  const matches = (names: ReadonlyArray<string>) => names.filter((n) => n.startsWith(word))
  const names = matches(tables)
  const known = matches(keywords)
  const ordered = afterTableKeyword ? [...names, ...known] : [...known, ...names]
  return [[...new Set(ordered)], word]
}
