/**
 * The SQL editor's language: ClickHouse's keywords and types, completion of tables, their
 * dotted columns and the engine's functions.
 */
import type { Completion } from "@codemirror/autocomplete"
import { keywordCompletionSource, sql, SQLDialect } from "@codemirror/lang-sql"
import { createEditor } from "../editor.js"
import type { CodeEditor } from "../editor.js"

const ClickHouse = SQLDialect.define({
  keywords:
    "select from where group by order limit offset having with as and or not in is null like ilike between case when then else end join left right inner outer full cross any all array using on distinct union except intersect exists interval prewhere final sample format settings asc desc nulls first last show describe explain tables databases columns create table database if insert into values true false over partition window rows range preceding following unbounded current row global local",
  types:
    "UInt8 UInt16 UInt32 UInt64 UInt128 UInt256 Int8 Int16 Int32 Int64 Int128 Int256 Float32 Float64 Decimal String FixedString Date Date32 DateTime DateTime64 UUID IPv4 IPv6 Array Tuple Map Nullable LowCardinality Enum8 Enum16 JSON Dynamic Variant Bool Nested",
  backslashEscapes: true,
  identifierQuotes: '`"',
  operatorChars: "*+-%<>!=&|/^~?:"
})

export interface SchemaHints {
  readonly tables: ReadonlyArray<{
    name: string
    columns: ReadonlyArray<{ name: string; type: string }>
  }>
  readonly functions: ReadonlyArray<string>
}

const completionsOf = (hints: SchemaHints): Array<Completion> => {
  const out: Array<Completion> = []
  for (const table of hints.tables) {
    out.push({ label: table.name, type: "class", detail: "table", boost: 2 })
    for (const column of table.columns)
      out.push({
        label: column.name,
        type: "property",
        detail: `${column.type} · ${table.name}`,
        boost: 1
      })
  }
  for (const name of hints.functions)
    out.push({ label: name, type: "function", apply: `${name}(`, boost: -1 })
  return out
}

export const createSqlEditor = (
  parent: HTMLElement,
  options: {
    readonly doc: string
    readonly label: string
    readonly onChange: (text: string) => void
    readonly onRun: () => void
    readonly onCancel: () => void
  }
): CodeEditor & { readonly setHints: (hints: SchemaHints) => void } => {
  const editor = createEditor(parent, {
    ...options,
    placeholder: "SELECT … (Ctrl+Enter runs)",
    language: sql({ dialect: ClickHouse }),
    extraSources: [keywordCompletionSource(ClickHouse, true)]
  })
  return { ...editor, setHints: (hints) => editor.setCompletions(completionsOf(hints)) }
}

export type SqlEditor = ReturnType<typeof createSqlEditor>
