/**
 * The SQL editor (loaded with the SQL view, not with the page): CodeMirror 6 with
 * ClickHouse's keywords and types, completion of tables, their dotted columns and the
 * engine's functions, Ctrl/Cmd+Enter to run and Esc to cancel.
 */
import { autocompletion, closeBrackets, completionKeymap } from "@codemirror/autocomplete"
import type { Completion, CompletionContext } from "@codemirror/autocomplete"
import { defaultKeymap, history, historyKeymap, indentWithTab } from "@codemirror/commands"
import { bracketMatching, defaultHighlightStyle, syntaxHighlighting } from "@codemirror/language"
import { keywordCompletionSource, sql, SQLDialect } from "@codemirror/lang-sql"
import { highlightSelectionMatches, searchKeymap } from "@codemirror/search"
import { EditorState, Prec, StateEffect, StateField } from "@codemirror/state"
import { Decoration, EditorView, keymap, lineNumbers, placeholder } from "@codemirror/view"
import type { DecorationSet } from "@codemirror/view"

const ClickHouse = SQLDialect.define({
  keywords:
    "select from where group by order limit offset having with as and or not in is null like ilike between case when then else end join left right inner outer full cross any all array using on distinct union except intersect exists interval prewhere final sample format settings asc desc nulls first last show describe explain tables databases columns create table database if insert into values true false over partition window rows range preceding following unbounded current row global local",
  types:
    "UInt8 UInt16 UInt32 UInt64 UInt128 UInt256 Int8 Int16 Int32 Int64 Int128 Int256 Float32 Float64 Decimal String FixedString Date Date32 DateTime DateTime64 UUID IPv4 IPv6 Array Tuple Map Nullable LowCardinality Enum8 Enum16 JSON Dynamic Variant Bool Nested",
  backslashEscapes: true,
  identifierQuotes: '`"',
  operatorChars: "*+-%<>!=&|/^~?:"
})

// The page's colours (custom properties reach into the shadow root), light or dark.
const theme = EditorView.theme({
  "&": { color: "var(--text)", backgroundColor: "var(--bg)", fontSize: "13px", minHeight: "120px" },
  ".cm-scroller": { minHeight: "120px" },
  ".cm-content": {
    caretColor: "var(--text)",
    fontFamily: "ui-monospace, SFMono-Regular, Menlo, monospace"
  },
  ".cm-gutters": {
    backgroundColor: "var(--panel)",
    color: "var(--muted)",
    borderRight: "1px solid var(--border)"
  },
  ".cm-activeLine": { backgroundColor: "transparent" },
  "&.cm-focused": { outline: "none" },
  "&.cm-focused .cm-cursor": { borderLeftColor: "var(--text)" },
  ".cm-error-at": {
    textDecoration: "wavy underline var(--error)",
    backgroundColor: "var(--error-bg)"
  },
  ".cm-tooltip": {
    backgroundColor: "var(--panel)",
    color: "var(--text)",
    border: "1px solid var(--border)"
  },
  ".cm-tooltip-autocomplete ul li[aria-selected]": {
    backgroundColor: "var(--accent)",
    color: "var(--accent-text)"
  },
  ".cm-completionDetail": { color: "var(--muted)", marginLeft: "1em" },
  ".cm-placeholder": { color: "var(--muted)" }
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

const setError = StateEffect.define<{ from: number; to: number } | null>()
const errorMark = Decoration.mark({ class: "cm-error-at" })
const errorField = StateField.define<DecorationSet>({
  create: () => Decoration.none,
  update(marks, transaction) {
    let next = transaction.docChanged ? Decoration.none : marks
    for (const effect of transaction.effects)
      if (effect.is(setError))
        next =
          effect.value === null
            ? Decoration.none
            : Decoration.set([errorMark.range(effect.value.from, effect.value.to)])
    return next
  },
  provide: (field) => EditorView.decorations.from(field)
})

export interface SqlEditor {
  readonly text: () => string
  readonly setText: (text: string) => void
  readonly setHints: (hints: SchemaHints) => void
  readonly markError: (offset: number | null) => void
  readonly focus: () => void
  readonly destroy: () => void
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
): SqlEditor => {
  let completions: Array<Completion> = []
  const schemaSource = (context: CompletionContext) => {
    const word = context.matchBefore(/[\w.]+/)
    if (word === null || (word.from === word.to && !context.explicit)) return null
    return { from: word.from, options: completions, validFor: /^[\w.]*$/ }
  }
  // In a shadow root CodeMirror's styles are constructed style sheets, which the page's
  // policy allows; in the document they would be <style> elements, which it refuses.
  const root = parent.shadowRoot ?? parent.attachShadow({ mode: "open" })
  const view = new EditorView({
    parent: root,
    root,
    state: EditorState.create({
      doc: options.doc,
      extensions: [
        lineNumbers(),
        history(),
        bracketMatching(),
        closeBrackets(),
        highlightSelectionMatches(),
        syntaxHighlighting(defaultHighlightStyle, { fallback: true }),
        sql({ dialect: ClickHouse }),
        theme,
        autocompletion({ override: [schemaSource, keywordCompletionSource(ClickHouse, true)] }),
        errorField,
        placeholder("SELECT … (Ctrl+Enter runs)"),
        EditorView.lineWrapping,
        EditorView.contentAttributes.of({ "aria-label": options.label }),
        Prec.highest(
          keymap.of([
            { key: "Mod-Enter", run: () => (options.onRun(), true) },
            { key: "Escape", run: () => (options.onCancel(), false) }
          ])
        ),
        keymap.of([
          ...completionKeymap,
          ...defaultKeymap,
          ...historyKeymap,
          ...searchKeymap,
          indentWithTab
        ]),
        EditorView.updateListener.of((update) => {
          if (update.docChanged) options.onChange(update.state.doc.toString())
        })
      ]
    })
  })
  return {
    text: () => view.state.doc.toString(),
    setText: (text) =>
      view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } }),
    setHints: (hints) => {
      completions = completionsOf(hints)
    },
    markError: (offset) => {
      if (offset === null) return view.dispatch({ effects: setError.of(null) })
      const length = view.state.doc.length
      const from = Math.max(0, Math.min(offset, length))
      const line = view.state.doc.lineAt(from)
      const to = Math.min(line.to, Math.max(from + 1, view.state.wordAt(from)?.to ?? from + 1))
      view.dispatch({ effects: setError.of(to > from ? { from, to } : null) })
    },
    focus: () => view.focus(),
    destroy: () => view.destroy()
  }
}
