/** A syntax tree back into PromQL text, on one line (`format_query`). */
import type { At, Expr, Matcher } from "./Ast.js"

const duration = (ms: number): string => {
  if (ms === 0) return "0s"
  const units: Array<[string, number]> = [
    ["y", 31_536_000_000],
    ["w", 604_800_000],
    ["d", 86_400_000],
    ["h", 3_600_000],
    ["m", 60_000],
    ["s", 1000],
    ["ms", 1]
  ]
  let rest = Math.abs(ms)
  let out = ms < 0 ? "-" : ""
  for (const [unit, size] of units) {
    if (rest >= size) {
      out += `${Math.floor(rest / size)}${unit}`
      rest %= size
    }
  }
  return out
}

const quote = (value: string) => JSON.stringify(value)

const matchers = (list: ReadonlyArray<Matcher>) => {
  const name = list.find((m) => m.name === "__name__" && m.type === "=")
  const rest = list.filter((m) => m !== name).map((m) => `${m.name}${m.type}${quote(m.value)}`)
  return `${name?.value ?? ""}${rest.length > 0 || !name ? `{${rest.join(", ")}}` : ""}`
}

/** A selector's matchers as PromQL writes them, `name{label="value"}`. */
export const printMatchers = matchers

const modifiers = (offset: number, at: At | undefined) =>
  (at === undefined
    ? ""
    : ` @ ${at === "start" || at === "end" ? `${at}()` : (at / 1000).toFixed(3)}`) +
  (offset === 0 ? "" : ` offset ${duration(offset)}`)

export const printExpr = (expr: Expr): string => {
  switch (expr.kind) {
    case "number":
      return Number.isNaN(expr.value)
        ? "NaN"
        : Number.isFinite(expr.value)
          ? String(expr.value)
          : expr.value > 0
            ? "+Inf"
            : "-Inf"
    case "string":
      return quote(expr.value)
    case "selector":
      return matchers(expr.matchers) + modifiers(expr.offset, expr.at)
    case "matrix":
      return `${matchers(expr.selector.matchers)}[${duration(expr.range)}]${modifiers(expr.selector.offset, expr.selector.at)}`
    case "subquery":
      return `${printExpr(expr.expr)}[${duration(expr.range)}:${expr.step === undefined ? "" : duration(expr.step)}]${modifiers(expr.offset, expr.at)}`
    case "unary":
      return `${expr.op}${printExpr(expr.expr)}`
    case "binary": {
      const m = expr.matching
      const matching = m
        ? (m.on || m.labels.length > 0
            ? ` ${m.on ? "on" : "ignoring"} (${m.labels.join(", ")})`
            : "") +
          (m.card === "many-to-one"
            ? ` group_left (${m.include.join(", ")})`
            : m.card === "one-to-many"
              ? ` group_right (${m.include.join(", ")})`
              : "")
        : ""
      const wrap = (e: Expr) => (e.kind === "binary" ? `(${printExpr(e)})` : printExpr(e))
      return `${wrap(expr.lhs)} ${expr.op}${expr.bool ? " bool" : ""}${matching} ${wrap(expr.rhs)}`
    }
    case "aggregate": {
      const grouping =
        expr.grouping.length > 0 || expr.without
          ? ` ${expr.without ? "without" : "by"} (${expr.grouping.join(", ")})`
          : ""
      const args = expr.param
        ? `${printExpr(expr.param)}, ${printExpr(expr.expr)}`
        : printExpr(expr.expr)
      return `${expr.op}${grouping} (${args})`
    }
    case "call":
      return `${expr.fn}(${expr.args.map(printExpr).join(", ")})`
  }
}
