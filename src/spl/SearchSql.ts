/**
 * The search language (base search and `| search`) as an SQL condition that is never
 * null: terms and phrases over `_raw` segments, `field=value` over whole values with
 * `*` wildcards and case folded, `field=*`, `!=` (the field must exist), `NOT` (every
 * other event), numeric comparisons of numeric values, `IN` (spl.md §1).
 */
import type { SearchNode, SearchOperator, SearchValue } from "./Ast.js"
import { quoteString } from "../engine/Sql.js"
import { refuse } from "./Refusal.js"
import { asNumber, asText, fieldValue, ident, numberLiteral, usableName } from "./Rows.js"
import type { Rows } from "./Rows.js"
import { segmentTest } from "./Segments.js"

const TIME_MODIFIERS = ["earliest", "latest"]

const NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/

/** A LIKE pattern for a whole value: `*` is any run, everything else literal. */
export const likePattern = (value: string) =>
  value.replace(/[\\%_]/g, (c) => `\\${c}`).replace(/\*/g, "%")

/** The stored `_raw` (a String column, never null), as the base search reads it. */
const STORED_RAW = ident("_raw")

const segments = (rows: Rows, text: string) => {
  const test = segmentTest(text)
  if (test === null) return "1"
  const raw = asText(fieldValue(rows, "_raw"))
  // ifNull only where `_raw` can be null (made by eval): it costs time on every event.
  const never = (sql: string) => (raw === STORED_RAW ? sql : `ifNull(${sql}, 0)`)
  const haystack = test.lowered ? `lower(${raw})` : raw
  const matched = never(`match(${haystack}, ${quoteString(test.pattern)})`)
  return test.prefilter === null
    ? matched
    : `(${never(`positionCaseInsensitive(${raw}, ${quoteString(test.prefilter)}) > 0`)} AND ${matched})`
}

const equals = (text: string, value: SearchValue) =>
  value.text === "*"
    ? `(${text} IS NOT NULL)`
    : `ifNull(ilike(${text}, ${quoteString(likePattern(value.text))}), 0)`

const compare = (rows: Rows, field: string, op: SearchOperator, value: SearchValue, at: number) => {
  if (!usableName(field)) refuse("search", at, `'${field}' is not a field name the search can use`)
  if (TIME_MODIFIERS.includes(field))
    refuse(
      "search",
      at,
      `${field}= bounds the whole search: write it in the base search, outside OR and NOT`
    )
  const found = fieldValue(rows, field)
  const text = asText(found)
  switch (op) {
    case "=":
      return equals(text, value)
    case "!=":
      return value.text === "*" ? "0" : `(${text} IS NOT NULL AND NOT ${equals(text, value)})`
    default:
      return NUMBER.test(value.text)
        ? `ifNull(${asNumber(found)} ${op} ${numberLiteral(Number(value.text))}, 0)`
        : `ifNull(${text} ${op} ${quoteString(value.text)}, 0)`
  }
}

/** `at` is where the search command starts (where a refusal points). */
export const searchCondition = (rows: Rows, node: SearchNode, at: number): string => {
  switch (node.type) {
    case "and":
    case "or":
      return `(${node.operands.map((o) => searchCondition(rows, o, at)).join(node.type === "and" ? " AND " : " OR ")})`
    case "not":
      return `(NOT ${searchCondition(rows, node.operand, at)})`
    case "term":
    case "phrase":
      return segments(rows, node.text)
    case "compare":
      return compare(rows, node.field, node.op, node.value, at)
    case "call":
      return refuse("search", node.at, `${node.name}() is not in the subset`)
    case "in":
      return `(${node.values.map((v) => compare(rows, node.field, "=", v, at)).join(" OR ")})`
  }
}
