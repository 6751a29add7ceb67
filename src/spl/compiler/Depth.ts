/**
 * How deeply a search or expression nests, measured without recursion, so a chain like
 * `- - - … 1` or `NOT NOT … a` is refused by a limit rather than by the stack (and the
 * SQL stays within the engine's parser depth).
 */
import type { Expr, SearchNode } from "./Ast.js"

export const MAX_DEPTH = 100

const searchChildren = (node: SearchNode): ReadonlyArray<SearchNode> =>
  node.type === "and" || node.type === "or"
    ? node.operands
    : node.type === "not"
      ? [node.operand]
      : []

const exprChildren = (node: Expr): ReadonlyArray<Expr> => {
  switch (node.type) {
    case "not":
    case "negate":
      return [node.operand]
    case "call":
      return node.args
    case "or":
    case "and":
    case "compare":
    case "concat":
    case "arith":
      return [node.left, node.right]
    default:
      return []
  }
}

const depth = <N>(root: N, children: (node: N) => ReadonlyArray<N>): number => {
  let deepest = 0
  const pending: Array<readonly [N, number]> = [[root, 1]]
  while (pending.length > 0) {
    const [node, level] = pending.pop()!
    deepest = Math.max(deepest, level)
    for (const child of children(node)) pending.push([child, level + 1])
  }
  return deepest
}

export const searchDepth = (node: SearchNode) => depth(node, searchChildren)
export const exprDepth = (node: Expr) => depth(node, exprChildren)
