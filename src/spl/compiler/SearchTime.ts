/**
 * `earliest=` and `latest=` written in the base search: they
 * take the place of the request's window, resolved against the search's start time with
 * the same modifiers (`-24h`, `-7d@d`, `@w1`, epoch seconds, `now`). They bound the whole
 * search, so they stand at its top level: inside OR or NOT they are refused.
 */
import type { SearchWindow } from "../../../domain/SplCompiler.js"
import type { SearchNode } from "./Ast.js"
import { Refusal, refuse } from "./Refusal.js"
import { resolveTime } from "./TimeModifier.js"

const MODIFIERS = ["earliest", "latest"]

const isModifier = (node: SearchNode) => node.type === "compare" && MODIFIERS.includes(node.field)

const mentions = (node: SearchNode): boolean =>
  isModifier(node) ||
  (node.type === "in" && MODIFIERS.includes(node.field)) ||
  (node.type === "not" && mentions(node.operand)) ||
  ((node.type === "and" || node.type === "or") && node.operands.some(mentions))

/** A modifier's instant; a bad one is refused as the search's, where the search starts. */
const resolved = (field: string, text: string, now: number, at: number) => {
  try {
    return resolveTime(field, text, now)
  } catch (error) {
    if (error instanceof Refusal) return refuse("search", at, `${field}=${text}: ${error.reason}`)
    throw error
  }
}

export interface SearchTime {
  /** The search without its time modifiers; null when nothing else was written. */
  readonly expression: SearchNode | null
  readonly window: SearchWindow
}

export const searchTime = (
  expression: SearchNode,
  window: SearchWindow,
  now: number,
  at: number
): SearchTime => {
  const operands = expression.type === "and" ? expression.operands : [expression]
  const modifiers = operands.filter(isModifier)
  const rest = operands.filter((o) => !isModifier(o))
  if (rest.some(mentions))
    refuse(
      "search",
      at,
      "earliest= and latest= bound the whole search: write them outside OR, NOT and IN"
    )
  let bounds = window
  for (const node of modifiers) {
    if (node.type !== "compare") continue
    if (node.op !== "=") refuse("search", at, `${node.field} takes =, as in ${node.field}=-24h`)
    bounds = { ...bounds, [node.field]: resolved(node.field, node.value.text, now, at) }
  }
  return {
    expression:
      rest.length === 0 ? null : rest.length === 1 ? rest[0]! : { type: "and", operands: rest },
    window: bounds
  }
}
