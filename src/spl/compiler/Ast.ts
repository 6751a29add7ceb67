/** The syntax tree the grammar (grammar/spl.peggy) produces: one type per node shape. */

export interface SearchValue {
  readonly text: string
  readonly quoted: boolean
}

export type SearchOperator = "=" | "!=" | "<" | "<=" | ">" | ">="

export type SearchNode =
  | { readonly type: "and" | "or"; readonly operands: ReadonlyArray<SearchNode> }
  | { readonly type: "not"; readonly operand: SearchNode }
  | { readonly type: "term" | "phrase"; readonly text: string }
  | {
      readonly type: "compare"
      readonly field: string
      readonly op: SearchOperator
      readonly value: SearchValue
    }
  | { readonly type: "in"; readonly field: string; readonly values: ReadonlyArray<SearchValue> }
  /** `TERM(`, `CASE(` and the like: parsed only to be refused by name. */
  | { readonly type: "call"; readonly name: string; readonly at: number }

export type CompareOperator = "=" | "!=" | "<" | "<=" | ">" | ">="

export type Expr =
  | { readonly type: "or" | "and"; readonly left: Expr; readonly right: Expr }
  | { readonly type: "not"; readonly operand: Expr }
  | { readonly type: "negate"; readonly operand: Expr }
  | {
      readonly type: "compare"
      readonly op: CompareOperator
      readonly left: Expr
      readonly right: Expr
    }
  | { readonly type: "concat"; readonly left: Expr; readonly right: Expr }
  | {
      readonly type: "arith"
      readonly op: "+" | "-" | "*" | "/" | "%"
      readonly left: Expr
      readonly right: Expr
    }
  | {
      readonly type: "call"
      readonly name: string
      readonly args: ReadonlyArray<Expr>
      readonly at: number
    }
  | { readonly type: "string"; readonly value: string }
  | { readonly type: "number"; readonly value: string }
  | { readonly type: "field"; readonly name: string }

export interface Aggregate {
  readonly fn: string
  readonly field: string | null
  readonly as: string | null
  readonly at: number
  readonly text: string
}

export interface SortKey {
  readonly field: string
  readonly descending: boolean
}

/** `span=1h`, `limit=5` …: the value as written (quotes removed), `at` the option's offset. */
export interface TimechartOption {
  readonly name: string
  readonly value: string
  readonly at: number
}

interface Located {
  /** Offset of the command's first character in the SPL text. */
  readonly at: number
  /** The command's text as written (name and arguments). */
  readonly text: string
}

export type Command = Located &
  (
    | { readonly command: "search"; readonly expression: SearchNode }
    | { readonly command: "where"; readonly expression: Expr }
    | {
        readonly command: "eval"
        readonly assignments: ReadonlyArray<{ readonly field: string; readonly expression: Expr }>
      }
    | {
        readonly command: "stats"
        readonly aggregates: ReadonlyArray<Aggregate>
        readonly by: ReadonlyArray<string>
      }
    | {
        readonly command: "sort"
        readonly count: number | null
        readonly keys: ReadonlyArray<SortKey>
      }
    | { readonly command: "head"; readonly count: number | null }
    | {
        readonly command: "fields"
        readonly remove: boolean
        readonly signAt: number
        readonly fields: ReadonlyArray<string>
      }
    | { readonly command: "table"; readonly fields: ReadonlyArray<string> }
    | {
        readonly command: "rename"
        readonly renamings: ReadonlyArray<{ readonly from: string; readonly to: string }>
      }
    | {
        readonly command: "dedup"
        readonly count: number | null
        readonly fields: ReadonlyArray<string>
        /** `keepempty=`, `consecutive=` as written. */
        readonly options: ReadonlyArray<TimechartOption>
        /** `sortby` keys (an empty list when written bare), null without `sortby`. */
        readonly sortby: ReadonlyArray<SortKey> | null
      }
    | {
        readonly command: "timechart"
        readonly options: ReadonlyArray<TimechartOption>
        readonly aggregates: ReadonlyArray<Aggregate>
        readonly by: string | null
      }
    | { readonly command: "unknown"; readonly name: string }
  )

export interface Pipeline {
  /** The base search before the first `|`; null when there is none (every event). */
  readonly search:
    (Located & { readonly command: "search"; readonly expression: SearchNode }) | null
  readonly commands: ReadonlyArray<Command>
}
