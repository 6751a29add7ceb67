/** The typed PromQL syntax tree the evaluator works on (parsed by Parse.ts). */
export type MatchType = "=" | "!=" | "=~" | "!~"

export interface Matcher {
  readonly name: string
  readonly type: MatchType
  readonly value: string
}

/** `@` as a time in ms, or the query's start or end. */
export type At = number | "start" | "end"

export interface VectorSelector {
  readonly kind: "selector"
  /** The metric name written before the braces (`foo{…}`), as against `{__name__="foo"}`. */
  readonly name?: string
  readonly matchers: ReadonlyArray<Matcher>
  readonly offset: number
  readonly at: At | undefined
}

export interface MatrixSelector {
  readonly kind: "matrix"
  readonly selector: VectorSelector
  readonly range: number
}

export interface Subquery {
  readonly kind: "subquery"
  readonly expr: Expr
  readonly range: number
  readonly step: number | undefined
  readonly offset: number
  readonly at: At | undefined
}

export interface VectorMatching {
  readonly card: "one-to-one" | "many-to-one" | "one-to-many" | "many-to-many"
  readonly on: boolean
  readonly labels: ReadonlyArray<string>
  readonly include: ReadonlyArray<string>
}

export type BinaryOp =
  | "+"
  | "-"
  | "*"
  | "/"
  | "%"
  | "^"
  | "atan2"
  | "=="
  | "!="
  | ">"
  | "<"
  | ">="
  | "<="
  | "and"
  | "or"
  | "unless"

export interface Binary {
  readonly kind: "binary"
  readonly op: BinaryOp
  readonly lhs: Expr
  readonly rhs: Expr
  readonly bool: boolean
  readonly matching: VectorMatching | undefined
}

export interface Aggregate {
  readonly kind: "aggregate"
  readonly op: string
  readonly expr: Expr
  readonly param: Expr | undefined
  readonly grouping: ReadonlyArray<string>
  readonly without: boolean
}

export interface Call {
  readonly kind: "call"
  readonly fn: string
  readonly args: ReadonlyArray<Expr>
}

/**
 * How many parentheses the query wrapped a node in. Evaluation ignores them (as
 * Prometheus's engine unwraps its `ParenExpr`); `format_query` prints them back.
 */
interface Grouped {
  readonly parens?: number
}

export type Expr =
  /** `duration`: written as one (`5m`), which Prometheus 3 prints back as one. */
  (
    | { readonly kind: "number"; readonly value: number; readonly duration?: boolean }
    | { readonly kind: "string"; readonly value: string }
    | { readonly kind: "unary"; readonly op: "-" | "+"; readonly expr: Expr }
    | VectorSelector
    | MatrixSelector
    | Subquery
    | Binary
    | Aggregate
    | Call
  ) &
    Grouped

export const COMPARISONS: ReadonlySet<BinaryOp> = new Set(["==", "!=", ">", "<", ">=", "<="])
export const SET_OPS: ReadonlySet<BinaryOp> = new Set(["and", "or", "unless"])

/** The vector selectors of `expr`, in the order the query writes them. */
export const selectorsIn = (expr: Expr): ReadonlyArray<VectorSelector> => {
  switch (expr.kind) {
    case "number":
    case "string":
      return []
    case "selector":
      return [expr]
    case "matrix":
      return [expr.selector]
    case "unary":
    case "subquery":
      return selectorsIn(expr.expr)
    case "binary":
      return [...selectorsIn(expr.lhs), ...selectorsIn(expr.rhs)]
    case "aggregate":
      return [
        ...(expr.param === undefined ? [] : selectorsIn(expr.param)),
        ...selectorsIn(expr.expr)
      ]
    case "call":
      return expr.args.flatMap(selectorsIn)
  }
}
