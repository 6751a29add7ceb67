/**
 * A syntax tree back into PromQL text, as Prometheus 3 prints it (`format_query`).
 * `exprText` is Prometheus's one-line `String()`: the parentheses the query wrote and no
 * others, label matchers sorted and joined by `,`, numbers in fixed notation, strings
 * quoted as Go quotes them, durations in Prometheus's units. `prettyExpr` is its
 * `Prettify`: a node whose text is longer than 100 bytes is split over lines, its
 * children indented two spaces a level; anything shorter stays on one line.
 */
import type { At, Expr, Matcher, VectorMatching, VectorSelector } from "./Ast.js"
import { goPlainDecimal, goQuote } from "./GoFormat.js"
import { isLabelName } from "../../SeriesLabels.js"

const LINE_LIMIT = 100
const INDENT = "  "

/** Prometheus's `model.Duration`: years and weeks only when they divide it exactly. */
const duration = (ms: number): string => {
  if (ms === 0) return "0s"
  if (ms < 0) return `-${duration(-ms)}`
  const units: ReadonlyArray<readonly [string, number, boolean]> = [
    ["y", 31_536_000_000, true],
    ["w", 604_800_000, true],
    ["d", 86_400_000, false],
    ["h", 3_600_000, false],
    ["m", 60_000, false],
    ["s", 1000, false],
    ["ms", 1, false]
  ]
  let rest = ms
  let out = ""
  for (const [unit, size, exact] of units) {
    if (exact && rest % size !== 0) continue
    const count = Math.floor(rest / size)
    if (count > 0) {
      out += `${count}${unit}`
      rest -= count * size
    }
  }
  return out
}

const labelName = (name: string) => (isLabelName(name) ? name : goQuote(name))

const labelList = (names: ReadonlyArray<string>) => names.map(labelName).join(", ")

const matcherText = (m: Matcher) => `${labelName(m.name)}${m.type}${goQuote(m.value)}`

const modifiers = (offset: number, at: At | undefined) =>
  (at === undefined
    ? ""
    : ` @ ${at === "start" || at === "end" ? `${at}()` : (at / 1000).toFixed(3)}`) +
  (offset === 0 ? "" : ` offset ${duration(offset)}`)

/** A selector's name and matchers, without its modifiers. */
const selectorText = (selector: VectorSelector) => {
  const name = selector.name ?? ""
  const rest = selector.matchers
    .filter((m) => !(m.name === "__name__" && m.type === "=" && m.value === name && name !== ""))
    .map(matcherText)
    .sort()
  return rest.length === 0 ? name : `${name}{${rest.join(",")}}`
}

/** Matchers as a selector writes them, `name{label="value"}` (`explain=true` names reads so). */
export const printMatchers = (matchers: ReadonlyArray<Matcher>) => {
  const name = matchers.find((m) => m.name === "__name__" && m.type === "=")?.value
  return selectorText({
    kind: "selector",
    matchers,
    offset: 0,
    at: undefined,
    ...(name ? { name } : {})
  })
}

const matchingText = (m: VectorMatching | undefined) => {
  if (m === undefined) return ""
  const grouped = m.card === "many-to-one" || m.card === "one-to-many"
  const on =
    m.labels.length > 0 || m.on || grouped
      ? ` ${m.on ? "on" : "ignoring"} (${labelList(m.labels)})`
      : ""
  const group = grouped
    ? ` group_${m.card === "many-to-one" ? "left" : "right"} (${labelList(m.include)})`
    : ""
  return on + group
}

const aggregatorText = (e: Extract<Expr, { kind: "aggregate" }>) =>
  e.without
    ? `${e.op} without (${labelList(e.grouping)}) `
    : e.grouping.length > 0
      ? `${e.op} by (${labelList(e.grouping)}) `
      : e.op

const subquerySuffix = (e: Extract<Expr, { kind: "subquery" }>) =>
  `[${duration(e.range)}:${e.step === undefined ? "" : duration(e.step)}]${modifiers(e.offset, e.at)}`

/** Prometheus's parser folds a sign into the number it precedes: `-1` is one literal. */
const foldedNumber = (e: Extract<Expr, { kind: "unary" }>) =>
  e.expr.kind === "number" && (e.expr.parens ?? 0) === 0
    ? { ...e.expr, value: e.op === "-" ? -e.expr.value : e.expr.value }
    : undefined

const numberText = (e: Extract<Expr, { kind: "number" }>) =>
  e.duration && Number.isFinite(e.value) ? duration(e.value * 1000) : goPlainDecimal(e.value)

/** A node's own text, without the parentheses around it. */
const bareText = (e: Expr): string => {
  switch (e.kind) {
    case "number":
      return numberText(e)
    case "string":
      return goQuote(e.value)
    case "selector":
      return selectorText(e) + modifiers(e.offset, e.at)
    case "matrix":
      return `${selectorText(e.selector)}[${duration(e.range)}]${modifiers(e.selector.offset, e.selector.at)}`
    case "subquery":
      return exprText(e.expr) + subquerySuffix(e)
    case "unary": {
      const folded = foldedNumber(e)
      return folded ? numberText(folded) : `${e.op}${exprText(e.expr)}`
    }
    case "binary":
      return `${exprText(e.lhs)} ${e.op}${e.bool ? " bool" : ""}${matchingText(e.matching)} ${exprText(e.rhs)}`
    case "aggregate":
      return `${aggregatorText(e)}(${e.param ? `${exprText(e.param)}, ` : ""}${exprText(e.expr)})`
    case "call":
      return `${e.fn}(${e.args.map(exprText).join(", ")})`
  }
}

/** Prometheus's `String()` of a node: one line. */
export const exprText = (e: Expr): string => {
  const parens = e.parens ?? 0
  return parens === 0 ? bareText(e) : "(".repeat(parens) + bareText(e) + ")".repeat(parens)
}

/** Go measures a line in bytes. */
const needsSplit = (e: Expr) => Buffer.byteLength(exprText(e)) > LINE_LIMIT

const indent = (level: number) => INDENT.repeat(level)

const pretty = (e: Expr, level: number): string => {
  const pad = indent(level)
  const parens = e.parens ?? 0
  if (parens > 0) {
    if (!needsSplit(e)) return pad + exprText(e)
    const inner: Expr = { ...e, parens: parens - 1 }
    return `${pad}(\n${pretty(inner, level + 1)}\n${pad})`
  }
  switch (e.kind) {
    case "number":
    case "string":
    case "selector":
    case "matrix":
      return pad + exprText(e)
    case "subquery":
      // Prometheus indents a subquery only through its inner expression, so one that
      // fits on a line is printed without the indent of its level.
      return needsSplit(e) ? pretty(e.expr, level) + subquerySuffix(e) : exprText(e)
    case "unary": {
      const folded = foldedNumber(e)
      if (folded) return pad + numberText(folded)
      return `${pad}${e.op}${pretty(e.expr, level).trim()}`
    }
    case "binary":
      if (!needsSplit(e)) return pad + exprText(e)
      return `${pretty(e.lhs, level + 1)}\n${pad}${e.op}${e.bool ? " bool" : ""}${matchingText(e.matching)}\n${pretty(e.rhs, level + 1)}`
    case "aggregate": {
      if (!needsSplit(e)) return pad + exprText(e)
      const param = e.param ? `${pretty(e.param, level + 1)},\n` : ""
      return `${pad}${aggregatorText(e)}(\n${param}${pretty(e.expr, level + 1)}\n${pad})`
    }
    case "call":
      if (!needsSplit(e)) return pad + exprText(e)
      return `${pad}${e.fn}(\n${e.args.map((arg) => pretty(arg, level + 1)).join(",\n")}\n${pad})`
  }
}

/** Prometheus's `Prettify`, which `format_query` answers. */
export const prettyExpr = (e: Expr): string => pretty(e, 0)
