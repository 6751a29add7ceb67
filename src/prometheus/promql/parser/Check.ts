/**
 * Prometheus's checks of a parsed query (its parser's `checkAST`): how many arguments a
 * function takes and of which types, what an aggregation and its parameter must be, the
 * operand types of unary and binary operators and of set operations, what a subquery may
 * wrap. A query that fails one is `bad_data` before anything is read, with the message of
 * the first failure in Prometheus's order (without its `line:column` prefix).
 */
import type { Expr } from "./Ast.js"
import { COMPARISONS, SET_OPS } from "./Ast.js"
import type { ValueType } from "./Functions.js"
import { SIGNATURES } from "./Functions.js"

/** The type names Prometheus's messages use. */
const DOCUMENTED: Record<ValueType, string> = {
  scalar: "scalar",
  vector: "instant vector",
  matrix: "range vector",
  string: "string"
}

const SCALAR_PARAMETER = new Set(["topk", "bottomk", "quantile", "limitk", "limit_ratio"])

class Refused extends Error {}

const refuse = (message: string): never => {
  throw new Refused(message)
}

const expect = (expr: Expr, want: ValueType, context: string) => {
  const got = typeOf(expr)
  if (got !== want)
    refuse(`expected type ${DOCUMENTED[want]} in ${context}, got ${DOCUMENTED[got]}`)
}

const callType = (fn: string, args: ReadonlyArray<Expr>): ValueType => {
  const signature = SIGNATURES[fn]
  if (signature === undefined) return refuse(`unknown function with name "${fn}"`)
  const declared = signature.args.length
  if (signature.variadic === 0) {
    if (args.length !== declared)
      refuse(`expected ${declared} argument(s) in call to "${fn}", got ${args.length}`)
  } else if (args.length < declared - 1)
    refuse(`expected at least ${declared - 1} argument(s) in call to "${fn}", got ${args.length}`)
  else if (signature.variadic > 0 && args.length > declared - 1 + signature.variadic)
    refuse(
      `expected at most ${declared - 1 + signature.variadic} argument(s) in call to "${fn}", got ${args.length}`
    )
  args.forEach((arg, i) =>
    expect(arg, signature.args[Math.min(i, declared - 1)]!, `call to function "${fn}"`)
  )
  return signature.returns
}

const typeOf = (expr: Expr): ValueType => {
  switch (expr.kind) {
    case "number":
      return "scalar"
    case "string":
      return "string"
    case "selector":
      return "vector"
    case "matrix":
      return "matrix"
    case "subquery": {
      const inner = typeOf(expr.expr)
      if (inner !== "vector")
        refuse(`subquery is only allowed on instant vector, got ${inner} instead`)
      return "matrix"
    }
    case "unary": {
      const inner = typeOf(expr.expr)
      if (inner !== "scalar" && inner !== "vector")
        refuse(
          `unary expression only allowed on expressions of type scalar or instant vector, got "${DOCUMENTED[inner]}"`
        )
      return inner
    }
    case "call":
      return callType(expr.fn, expr.args)
    case "aggregate":
      expect(expr.expr, "vector", "aggregation expression")
      if (expr.param !== undefined && SCALAR_PARAMETER.has(expr.op))
        expect(expr.param, "scalar", "aggregation parameter")
      if (expr.param !== undefined && expr.op === "count_values")
        expect(expr.param, "string", "aggregation parameter")
      return "vector"
    case "binary": {
      const left = typeOf(expr.lhs)
      const right = typeOf(expr.rhs)
      if (COMPARISONS.has(expr.op) && !expr.bool && left === "scalar" && right === "scalar")
        refuse("comparisons between scalars must use BOOL modifier")
      const matching = expr.matching
      if (matching?.on)
        for (const label of matching.include)
          if (matching.labels.includes(label))
            refuse(`label "${label}" must not occur in ON and GROUP clause at once`)
      for (const side of [left, right])
        if (side !== "scalar" && side !== "vector")
          refuse("binary expression must contain only scalar and instant vector types")
      const vectors = left === "vector" && right === "vector"
      if (!vectors && (matching?.labels.length ?? 0) > 0)
        refuse("vector matching only allowed between instant vectors")
      const grouped = matching?.card === "many-to-one" || matching?.card === "one-to-many"
      if (vectors && SET_OPS.has(expr.op) && grouped)
        refuse(`no grouping allowed for "${expr.op}" operation`)
      if (!vectors && SET_OPS.has(expr.op))
        refuse(`set operator "${expr.op}" not allowed in binary scalar expression`)
      return left === "scalar" && right === "scalar" ? "scalar" : "vector"
    }
  }
}

/** The first check `expr` fails, in Prometheus's words; `undefined` when it passes them all. */
export const problemOf = (expr: Expr): string | undefined => {
  try {
    typeOf(expr)
    return undefined
  } catch (error) {
    if (error instanceof Refused) return error.message
    throw error
  }
}
