/**
 * The console's code editor (loaded with the views that have one): CodeMirror 6 in a
 * shadow root, with the page's colours, a language given by the view, completion from a
 * list the view fills, Ctrl/Cmd+Enter to run, Esc to cancel, and a mark at an error.
 */
import {
  autocompletion,
  closeBrackets,
  closeCompletion,
  completionKeymap
} from "@codemirror/autocomplete"
import type { Completion, CompletionContext, CompletionSource } from "@codemirror/autocomplete"
import { defaultKeymap, history, historyKeymap, indentWithTab } from "@codemirror/commands"
import {
  bracketMatching,
  defaultHighlightStyle,
  syntaxHighlighting,
  syntaxTree
} from "@codemirror/language"
import { highlightSelectionMatches, searchKeymap } from "@codemirror/search"
import { EditorState, Prec, StateEffect, StateField } from "@codemirror/state"
import type { Extension } from "@codemirror/state"
import { Decoration, EditorView, keymap, lineNumbers, placeholder } from "@codemirror/view"
import type { DecorationSet } from "@codemirror/view"

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

export interface CodeEditor {
  readonly text: () => string
  readonly setText: (text: string) => void
  readonly setCompletions: (completions: ReadonlyArray<Completion>) => void
  readonly markError: (offset: number | null) => void
  readonly focus: () => void
  readonly destroy: () => void
}

export const createEditor = (
  parent: HTMLElement,
  options: {
    readonly doc: string
    readonly label: string
    readonly placeholder: string
    readonly language: Extension
    readonly extraSources?: ReadonlyArray<CompletionSource>
    /** The editor's least height in pixels (120 unless told): it grows with its lines. */
    readonly minHeight?: number
    readonly onChange: (text: string) => void
    readonly onRun: () => void
    readonly onCancel: () => void
  }
): CodeEditor => {
  let completions: ReadonlyArray<Completion> = []
  const listSource = (context: CompletionContext) => {
    const word = context.matchBefore(/[\w.]+/)
    if (word === null || (word.from === word.to && !context.explicit)) return null
    // Inside a string literal names are no help (a view's own source may complete values).
    if (/String/.test(syntaxTree(context.state).resolveInner(context.pos, -1).name)) return null
    return { from: word.from, options: [...completions], validFor: /^[\w.]*$/ }
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
        options.language,
        theme,
        ...(options.minHeight === undefined
          ? []
          : [
              // Above `theme`'s 120 px: of two themes, the one with the higher precedence wins.
              Prec.highest(
                EditorView.theme({
                  "&": { minHeight: `${options.minHeight}px` },
                  ".cm-scroller": { minHeight: `${options.minHeight}px` }
                })
              )
            ]),
        autocompletion({ override: [listSource, ...(options.extraSources ?? [])] }),
        errorField,
        placeholder(options.placeholder),
        EditorView.lineWrapping,
        EditorView.contentAttributes.of({ "aria-label": options.label }),
        Prec.highest(
          keymap.of([
            {
              key: "Mod-Enter",
              run: (target) => {
                closeCompletion(target)
                options.onRun()
                return true
              }
            },
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
    setCompletions: (list) => {
      completions = list
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
