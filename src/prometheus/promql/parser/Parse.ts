/**
 * PromQL text into the typed tree of Ast.ts, through lezer-promql's grammar. Two of the
 * grammar's groupings are not Prometheus's, so binary operators are regrouped here
 * (`binaryChain`): it binds a trailing `offset`/`@` to the whole binary expression before
 * it, and it reads `-1 ^ 2` as `(-1) ^ 2` where Prometheus binds `^` tighter than a sign.
 */
import type { SyntaxNode } from "@lezer/common"
import type {
  At,
  BinaryOp,
  Expr,
  Matcher,
  MatchType,
  VectorMatching,
  VectorSelector
} from "./Ast.js"
import { COMPARISONS } from "./Ast.js"
import { parseDuration } from "./Durations.js"
import { problemOf } from "./Check.js"
import { goQuote } from "./GoFormat.js"
import { FUNCTIONS } from "./Functions.js"
import { matcherMatches } from "../evaluator/Matchers.js"
import { anchoredRegexp, RegexpSyntaxError } from "./Regexp.js"
import { syntaxProblem } from "./SyntaxErrors.js"

/** `offset`: where in the text Prometheus would place it, when the grammar says where. */
export class PromQLSyntaxError extends Error {
  constructor(
    message: string,
    readonly offset?: number
  ) {
    super(message)
  }
}

const fail = (message: string, offset?: number): never => {
  throw new PromQLSyntaxError(message, offset)
}

const children = (node: SyntaxNode): Array<SyntaxNode> => {
  const out: Array<SyntaxNode> = []
  for (let child = node.firstChild; child; child = child.nextSibling) out.push(child)
  return out
}

const child = (node: SyntaxNode, name: string) => node.getChild(name) ?? undefined

/** A Go-style quoted string: "…", '…' or `…`. */
const unquote = (text: string): string => {
  if (text.startsWith("`")) return text.slice(1, -1)
  const body = text.slice(1, -1)
  return body.replace(/\\(u[0-9a-fA-F]{4}|x[0-9a-fA-F]{2}|[0-7]{3}|.)/g, (_, escape: string) => {
    switch (escape[0]) {
      case "n":
        return "\n"
      case "t":
        return "\t"
      case "r":
        return "\r"
      case "a":
        return "\x07"
      case "b":
        return "\b"
      case "f":
        return "\f"
      case "v":
        return "\v"
      case "u":
      case "x":
        return String.fromCharCode(parseInt(escape.slice(1), 16))
      default:
        return /^[0-7]{3}$/.test(escape) ? String.fromCharCode(parseInt(escape, 8)) : escape
    }
  })
}

/** A number literal's value, and whether it was written as a duration (`5m`, seconds). */
const parseLiteral = (text: string): { readonly value: number; readonly duration: boolean } => {
  // lezer may take a sign into the literal with what follows it (`- 1`, `-# note⏎1`).
  const lower = text
    .toLowerCase()
    .replace(/^([+-])(?:\s|#[^\n]*)*/, "$1")
    .replace(/^[+]/, "")
  const negative = lower.startsWith("-")
  const body = negative ? lower.slice(1) : lower
  let value: number
  let duration = false
  if (body === "inf") value = Infinity
  else if (body === "nan") value = NaN
  else if (/^0x[0-9a-f]+$/.test(body)) value = parseInt(body, 16)
  else if (/^[0-9]*\.?[0-9]*(e[+-]?[0-9]+)?$/.test(body) && body !== "" && body !== ".")
    value = Number(body)
  else {
    value = parseDuration(body) / 1000
    duration = true
  }
  return { value: negative ? -value : value, duration }
}

interface Operator {
  readonly op: BinaryOp
  readonly bool: boolean
  readonly matching: VectorMatching | undefined
}

const PRECEDENCE: Record<BinaryOp, number> = {
  or: 1,
  and: 2,
  unless: 2,
  "==": 3,
  "!=": 3,
  ">": 3,
  "<": 3,
  ">=": 3,
  "<=": 3,
  "+": 4,
  "-": 4,
  "*": 5,
  "/": 5,
  "%": 5,
  atan2: 5,
  "^": 6
}

const MATCH_OPS: Record<string, MatchType> = {
  EqlSingle: "=",
  Neq: "!=",
  EqlRegex: "=~",
  NeqRegex: "!~"
}

export const BINARY_OPS: Record<string, BinaryOp> = {
  Add: "+",
  Sub: "-",
  Mul: "*",
  Div: "/",
  Mod: "%",
  Pow: "^",
  Atan2: "atan2",
  Eql: "==",
  Neq: "!=",
  Gtr: ">",
  Lss: "<",
  Gte: ">=",
  Lte: "<=",
  And: "and",
  Or: "or",
  Unless: "unless"
}

/** lezer-promql's parser for PromQL text. */
export type Grammar = (typeof import("@prometheus-io/lezer-promql"))["parser"]

let grammar: Promise<Grammar> | undefined

/**
 * The grammar, loaded with the first PromQL request rather than with the service: its
 * parse tables and code are memory a service that answers no PromQL need not hold.
 */
export const loadGrammar = (): Promise<Grammar> =>
  (grammar ??= import("@prometheus-io/lezer-promql").then((module) => module.parser))

export const parsePromQL = (parser: Grammar, text: string): Expr => {
  // Only blanks and comments (a `#` in a string follows the string's opening quote).
  if (text.replace(/#.*/g, "").trim() === "") fail("no expression found in input", 0)
  const tree = parser.parse(text)
  tree.iterate({
    enter: (node) => {
      if (!node.type.isError) return
      const problem = syntaxProblem(text, node.from)
      fail(problem.message, problem.offset)
    }
  })
  const src = (node: SyntaxNode) => text.slice(node.from, node.to)

  /** A matcher's regular expression, refused as Prometheus's parser refuses it, at the matcher. */
  const compiledAt = (source: string, offset: number) => {
    try {
      anchoredRegexp(source)
    } catch (error) {
      if (!(error instanceof RegexpSyntaxError)) throw error
      fail(error.message, offset)
    }
  }

  const durationOf = (node: SyntaxNode): number => {
    const kids = children(node)
    if (node.name === "UnaryOp") return fail("unexpected sign")
    const sign = kids[0]?.name === "UnaryOp" ? (src(kids[0]) === "-" ? -1 : 1) : 1
    const literal = sign === 1 && kids[0]?.name !== "UnaryOp" ? src(node) : src(kids[1] ?? node)
    const value = /^[0-9.]+(e[+-]?[0-9]+)?$/i.test(literal)
      ? Number(literal) * 1000
      : parseDuration(literal)
    return sign * value
  }

  const selector = (node: SyntaxNode): VectorSelector => {
    const matchers: Array<Matcher> = []
    const name = child(node, "Identifier")
    if (name) matchers.push({ name: "__name__", type: "=", value: src(name) })
    const list = child(node, "LabelMatchers")
    for (const m of list ? children(list) : []) {
      if (m.name !== "UnquotedLabelMatcher" && m.name !== "QuotedLabelMatcher") continue
      const op = child(m, "MatchOp")?.firstChild
      const strings = m.getChildren("StringLiteral")
      const label = child(m, "LabelName")
      const quotedName = child(m, "QuotedLabelName")
      if (!op) fail("bad matcher")
      if (label === undefined && quotedName === undefined) {
        // `{"metric_name"}`: a quoted metric name alone.
        matchers.push({ name: "__name__", type: "=", value: unquote(src(strings[0]!)) })
        continue
      }
      const labelName = label ? src(label) : unquote(src(quotedName!.firstChild ?? quotedName!))
      const valueNode = strings[strings.length - 1]!
      const type = MATCH_OPS[op!.name]!
      const value = unquote(src(valueNode))
      if (type === "=~" || type === "!~") compiledAt(value, m.from)
      matchers.push({ name: labelName, type, value })
    }
    const second = name
      ? matchers.find((m, index) => index > 0 && m.name === "__name__")
      : undefined
    if (second !== undefined)
      fail(`metric name must not be set twice: ${goQuote(src(name!))} or ${goQuote(second.value)}`)
    const empty = matchers.every((m) => matcherMatches(m, ""))
    if (matchers.length === 0 || empty)
      fail("vector selector must contain at least one non-empty matcher")
    return {
      kind: "selector",
      matchers,
      offset: 0,
      at: undefined,
      ...(name ? { name: src(name) } : {})
    }
  }

  const atOf = (node: SyntaxNode): At => {
    const pre = child(node, "AtModifierPreprocessors")
    if (pre) return pre.firstChild?.name === "AtStart" ? "start" : "end"
    const literal = child(node, "NumberDurationLiteral")
    return Math.round(parseLiteral(src(literal!)).value * 1000)
  }

  const build = (node: SyntaxNode): Expr => {
    const kids = children(node)
    switch (node.name) {
      case "PromQL":
        return build(kids[0] ?? fail("empty expression"))
      case "ParenExpr": {
        const inner = build(kids[0] ?? fail("empty expression"))
        return { ...inner, parens: (inner.parens ?? 0) + 1 }
      }
      case "NumberDurationLiteral": {
        const { value, duration } = parseLiteral(src(node))
        return duration ? { kind: "number", value, duration } : { kind: "number", value }
      }
      case "StringLiteral":
        return { kind: "string", value: unquote(src(node)) }
      case "VectorSelector":
        return selector(node)
      case "MatrixSelector": {
        const inner = build(kids[0]!)
        if (
          inner.kind !== "selector" ||
          inner.offset !== 0 ||
          inner.at !== undefined ||
          (inner.parens ?? 0) > 0
        )
          return fail("ranges only allowed for vector selectors")
        return { kind: "matrix", selector: inner, range: durationOf(kids[1]!) }
      }
      case "SubqueryExpr": {
        const inner = build(kids[0]!)
        const durations = kids.filter((k) => k.name === "DurationExpr")
        return {
          kind: "subquery",
          expr: inner,
          range: durationOf(durations[0]!),
          step: durations[1] ? durationOf(durations[1]) : undefined,
          offset: 0,
          at: undefined
        }
      }
      case "OffsetExpr":
      case "StepInvariantExpr":
        return modified(node, [])
      case "UnaryExpr": {
        const expr = build(kids[1]!)
        return { kind: "unary", op: src(kids[0]!) === "-" ? "-" : "+", expr }
      }
      case "BinaryExpr":
        return binaryChain(node, [])
      case "FunctionCall": {
        const fn = src(kids[0]!)
        if (!FUNCTIONS.has(fn)) return fail(`unknown function with name "${fn}"`)
        const body = child(node, "FunctionCallBody")
        return { kind: "call", fn, args: body ? children(body).map(build) : [] }
      }
      case "AggregateExpr": {
        const op = src(kids[0]!)
        const body = child(node, "FunctionCallBody")
        const args = body ? children(body).map(build) : []
        const modifier = child(node, "AggregateModifier")
        const grouping = modifier
          ? (child(modifier, "GroupingLabels")?.getChildren("LabelName") ?? []).map(src)
          : []
        const withParam = [
          "topk",
          "bottomk",
          "quantile",
          "count_values",
          "limitk",
          "limit_ratio"
        ].includes(op)
        if (args.length !== (withParam ? 2 : 1))
          fail(
            `wrong number of arguments for aggregate expression provided, expected ${withParam ? 2 : 1}, got ${args.length}`
          )
        return {
          kind: "aggregate",
          op,
          expr: args[withParam ? 1 : 0]!,
          param: withParam ? args[0] : undefined,
          grouping,
          without: modifier?.firstChild?.name === "Without"
        }
      }
      default:
        return fail(`unsupported expression: ${src(node)}`)
    }
  }

  type Modifier = { readonly offset: number } | { readonly at: At }

  const isModifier = (node: SyntaxNode) =>
    node.name === "OffsetExpr" || node.name === "StepInvariantExpr"

  /** The node under a run of `offset`/`@`, and those modifiers, the nearest first. */
  const peel = (node: SyntaxNode, outer: ReadonlyArray<Modifier>) => {
    let base = node
    let modifiers = outer
    while (isModifier(base)) {
      const modifier: Modifier =
        base.name === "OffsetExpr"
          ? { offset: durationOf(child(base, "OffsetDurationExpr")!) }
          : { at: atOf(base) }
      modifiers = [modifier, ...modifiers]
      base = base.firstChild!
    }
    return { base, modifiers }
  }

  /**
   * A node under `offset`/`@`: Prometheus binds a modifier to the operand it follows, so
   * modifiers go down to the rightmost operand of what they follow.
   */
  const modified = (node: SyntaxNode, outer: ReadonlyArray<Modifier>): Expr => {
    const { base, modifiers } = peel(node, outer)
    if (modifiers.length === 0) return build(base)
    if (base.name === "BinaryExpr") return binaryChain(base, modifiers)
    if (base.name === "UnaryExpr") {
      const kids = children(base)
      return {
        kind: "unary",
        op: src(kids[0]!) === "-" ? "-" : "+",
        expr: modified(kids[1]!, modifiers)
      }
    }
    const inner = build(base)
    let merged: { offset?: number; at?: At } = {}
    for (const modifier of modifiers) merged = { ...merged, ...modifier }
    if ((inner.parens ?? 0) === 0) {
      if (inner.kind === "selector" || inner.kind === "subquery") return { ...inner, ...merged }
      if (inner.kind === "matrix") return { ...inner, selector: { ...inner.selector, ...merged } }
    }
    return fail(
      `${"offset" in modifiers[0]! ? "offset" : "@"} modifier must be preceded by an instant vector selector or range vector selector or a subquery`
    )
  }

  const operatorOf = (node: SyntaxNode): Operator => {
    const opNode = children(node)[1]!
    const op = BINARY_OPS[opNode.name] ?? fail(`unknown operator ${src(opNode)}`)
    const bool = child(node, "BoolModifier") !== undefined
    if (bool && !COMPARISONS.has(op)) fail("bool modifier can only be used on comparison operators")
    const clause = child(node, "MatchingModifierClause")
    if (!clause) return { op, bool, matching: undefined }
    const parts = children(clause)
    const groups = clause
      .getChildren("GroupingLabels")
      .map((g) => g.getChildren("LabelName").map(src))
    const card = parts.some((p) => p.name === "GroupLeft")
      ? "many-to-one"
      : parts.some((p) => p.name === "GroupRight")
        ? "one-to-many"
        : "one-to-one"
    return {
      op,
      bool,
      matching: {
        card,
        on: parts[0]?.name === "On",
        labels: groups[0] ?? [],
        include: groups[1] ?? []
      }
    }
  }

  /**
   * An unparenthesised run of binary operators. lezer binds a trailing `offset`/`@` to
   * the whole binary expression before it (`a and b offset 1m > 0` as
   * `(a and b) offset 1m > 0`), so the run is read flat, each modifier on the operand it
   * follows, and grouped again by Prometheus's precedence: `^` (right to left), then
   * `* / % atan2`, `+ -`, comparisons, `and unless`, `or`.
   */
  const binaryChain = (node: SyntaxNode, outer: ReadonlyArray<Modifier>): Expr => {
    const operands: Array<Expr> = []
    const operators: Array<Operator> = []
    // Signs before each operand, outermost first: a sign binds looser than `^` and as
    // tight as `*`, which lezer does not do for `-b offset 1m ^ 2` or `-1 ^ 2`.
    const signs: Array<ReadonlyArray<"-" | "+">> = []
    let pending: Array<"-" | "+"> = []
    const flatten = (at: SyntaxNode, modifiers: ReadonlyArray<Modifier>) => {
      const { base, modifiers: all } = peel(at, modifiers)
      if (base.name === "BinaryExpr") {
        flatten(base.firstChild!, [])
        operators.push(operatorOf(base))
        flatten(base.lastChild!, all)
        return
      }
      if (base.name === "UnaryExpr") {
        pending.push(src(base.firstChild!) === "-" ? "-" : "+")
        flatten(base.lastChild!, all)
        return
      }
      signs[operands.length] = pending
      pending = []
      const text = src(base)
      if (base.name === "NumberDurationLiteral" && /^[-+]/.test(text) && all.length === 0) {
        // A literal lezer read with its sign (`-1`): the sign is an operator here too.
        const negative = text[0] === "-"
        const signed = parseLiteral(text)
        const value = negative ? -signed.value : signed.value
        const duration = signed.duration
        signs[operands.length] = [...signs[operands.length]!, negative ? "-" : "+"]
        operands.push(duration ? { kind: "number", value, duration } : { kind: "number", value })
      } else operands.push(modified(at, modifiers))
    }
    flatten(node, outer)

    let next = 0
    const climb = (least: number): Expr => {
      const prefix = signs[next] ?? []
      let lhs: Expr
      if (prefix.length > 0) {
        signs[next] = []
        lhs = climb(PRECEDENCE["^"])
        for (const sign of [...prefix].reverse()) lhs = { kind: "unary", op: sign, expr: lhs }
      } else lhs = operands[next++]!
      while (next - 1 < operators.length) {
        const { op, bool, matching } = operators[next - 1]!
        const precedence = PRECEDENCE[op]
        if (precedence < least) break
        const rhs = climb(op === "^" ? precedence : precedence + 1)
        lhs = { kind: "binary", op, lhs, rhs, bool, matching }
      }
      return lhs
    }
    return climb(0)
  }

  const expr = build(tree.topNode)
  // Types and argument counts, as Prometheus's parser checks them (Check.ts).
  const problem = problemOf(expr)
  return problem === undefined ? expr : fail(problem)
}
