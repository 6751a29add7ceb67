/**
 * `where` and `eval` expressions: an unquoted word is a field, a double-
 * quoted string a literal; NOT, then AND before OR; comparisons and arithmetic with a
 * missing field are null and null is not true; numeric strings act as numbers.
 */
import type { CompareOperator, Expr } from "./Ast.js"
import { quoteString } from "../../engine/Sql.js"
import { callSql } from "./Functions.js"
import { refuse } from "./Refusal.js"
import { SQL_BUDGET } from "./Budget.js"
import { asNumber, asText, fieldValue, numberLiteral, usableName } from "./Rows.js"
import type { Rows, Value } from "./Rows.js"

export interface ExprContext {
  readonly rows: Rows
  readonly command: string
  readonly at: number
  /** When the search started (epoch ms), for `now()`. */
  readonly now: number
}

/** `_time` in an expression is epoch seconds (a number), as SPL's eval sees it. */
const timeAsNumber = (v: Value): Value =>
  v.kind === "time" ? { sql: asNumber(v), kind: "number" } : v

const textual = (v: Value) => v.kind === "string"
const numeric = (v: Value) => v.kind === "number" || v.kind === "time"

/** A test that is true, false or null; a value that is not a test is refused. */
export const condition = (context: ExprContext, value: Value): string =>
  value.kind === "bool"
    ? value.sql
    : refuse(
        context.command,
        context.at,
        `${context.command} needs a true/false test here, not a value`
      )

const comparison = (op: CompareOperator, left: Value, right: Value): string => {
  if (numeric(left) || numeric(right)) return `(${asNumber(left)} ${op} ${asNumber(right)})`
  if (textual(left) || textual(right)) return `(${asText(left)} ${op} ${asText(right)})`
  // Two extracted values: as numbers when both read as numbers, else as text.
  const [l, r] = [asNumber(left), asNumber(right)]
  return `if(${l} IS NOT NULL AND ${r} IS NOT NULL, ${l} ${op} ${r}, ${asText(left)} ${op} ${asText(right)})`
}

/**
 * An expression's SQL. Each node's SQL holds its operands' at most a few times, and is
 * refused once larger than the budget, so no nesting makes the text grow unbounded.
 */
export const expression = (context: ExprContext, expr: Expr): Value => {
  const value = node(context, expr)
  if (value.sql.length > SQL_BUDGET)
    refuse(
      context.command,
      context.at,
      `${context.command} compiles to more than ${SQL_BUDGET} bytes of SQL`
    )
  return value
}

const node = (context: ExprContext, expr: Expr): Value => {
  const sub = (e: Expr) => expression(context, e)
  switch (expr.type) {
    case "string":
      return { sql: quoteString(expr.value), kind: "string" }
    case "number":
      return { sql: numberLiteral(Number(expr.value)), kind: "number" }
    case "field":
      if (!usableName(expr.name))
        refuse(
          context.command,
          context.at,
          `'${expr.name}' is not a field name ${context.command} can use`
        )
      return timeAsNumber(fieldValue(context.rows, expr.name))
    case "and":
    case "or":
      return {
        sql: `(${condition(context, sub(expr.left))} ${expr.type.toUpperCase()} ${condition(context, sub(expr.right))})`,
        kind: "bool"
      }
    case "not":
      return { sql: `(NOT ${condition(context, sub(expr.operand))})`, kind: "bool" }
    case "negate":
      return { sql: `(-${asNumber(sub(expr.operand))})`, kind: "number" }
    case "compare":
      return { sql: comparison(expr.op, sub(expr.left), sub(expr.right)), kind: "bool" }
    case "concat":
      return {
        sql: `concat(${asText(sub(expr.left))}, ${asText(sub(expr.right))})`,
        kind: "string"
      }
    case "arith": {
      const [left, right] = [sub(expr.left), sub(expr.right)]
      if (expr.op === "+" && (textual(left) || textual(right)))
        return { sql: `concat(${asText(left)}, ${asText(right)})`, kind: "string" }
      const [l, r] = [asNumber(left), asNumber(right)]
      // Division by zero is null in SPL, not infinity; a literal divisor other than 0
      // needs no test on every event.
      const divisor =
        expr.right.type === "number" && Number(expr.right.value) !== 0 ? r : `nullIf(${r}, 0)`
      const sql =
        expr.op === "/"
          ? `(${l} / ${divisor})`
          : expr.op === "%"
            ? `modulo(${l}, ${divisor})`
            : `(${l} ${expr.op} ${r})`
      return { sql, kind: "number" }
    }
    case "call":
      return callSql(
        { ...context, at: expr.at },
        expr.name,
        expr.args.map(sub),
        expr.args.map((a) => (a.type === "string" ? a.value : null))
      )
  }
}
