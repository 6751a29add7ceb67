/**
 * The search language (base search and `| search`) as an SQL condition that is never
 * null where that matters: terms and phrases over `_raw` segments, `field=value` over whole values with
 * `*` wildcards and case folded, `field=*`, `!=` (the field must exist), `NOT` (every
 * other event), numeric comparisons of numeric values, `IN`.
 */
import type { SearchNode, SearchOperator, SearchValue } from "./Ast.js"
import { quoteString } from "../../engine/Sql.js"
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

/**
 * `filter`: the condition's value only decides whether a row passes a WHERE, where null
 * counts as false, and no NOT is above it. AND and OR give a true result with a null
 * operand exactly when they give it with that operand false, so there a test needs no
 * `ifNull(…, 0)`, which costs the engine time on every event; under NOT it does.
 */
type Never = (sql: string) => string

const neverNull: Never = (sql) => `ifNull(${sql}, 0)`
const asIs: Never = (sql) => sql

const segments = (rows: Rows, text: string, never: Never) => {
  const test = segmentTest(text)
  if (test === null) return "1"
  const raw = asText(fieldValue(rows, "_raw"))
  // The stored `_raw` is never null; only one made by eval can be.
  const nullable = raw === STORED_RAW ? asIs : never
  const haystack = test.lowered ? `lower(${raw})` : raw
  const matched = nullable(`match(${haystack}, ${quoteString(test.pattern)})`)
  return test.prefilter === null
    ? matched
    : `(${nullable(`positionCaseInsensitive(${raw}, ${quoteString(test.prefilter)}) > 0`)} AND ${matched})`
}

const equals = (text: string, value: SearchValue, never: Never) =>
  value.text === "*"
    ? `(${text} IS NOT NULL)`
    : never(`ilike(${text}, ${quoteString(likePattern(value.text))})`)

const compare = (
  rows: Rows,
  field: string,
  op: SearchOperator,
  value: SearchValue,
  at: number,
  never: Never
) => {
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
      return equals(text, value, never)
    case "!=":
      return value.text === "*"
        ? "0"
        : `(${text} IS NOT NULL AND NOT ${equals(text, value, neverNull)})`
    default:
      return NUMBER.test(value.text)
        ? never(`${asNumber(found)} ${op} ${numberLiteral(Number(value.text))}`)
        : never(`${text} ${op} ${quoteString(value.text)}`)
  }
}

/**
 * `at` is where the search command starts (where a refusal points); `filter` says the
 * condition is a WHERE of its own (see `Never`), not a value that must not be null.
 */
export const searchCondition = (
  rows: Rows,
  node: SearchNode,
  at: number,
  filter = false
): string => {
  const never = filter ? asIs : neverNull
  switch (node.type) {
    case "and":
    case "or":
      return `(${node.operands.map((o) => searchCondition(rows, o, at, filter)).join(node.type === "and" ? " AND " : " OR ")})`
    case "not":
      return `(NOT ${searchCondition(rows, node.operand, at)})`
    case "term":
    case "phrase":
      return segments(rows, node.text, never)
    case "compare":
      return compare(rows, node.field, node.op, node.value, at, never)
    case "call":
      return refuse("search", node.at, `${node.name}() is not in the subset`)
    case "in":
      return `(${node.values.map((v) => compare(rows, node.field, "=", v, at, never)).join(" OR ")})`
  }
}
