/**
 * The PromQL editor: the parser sluice itself uses (lezer-promql) for highlighting, and
 * label values completed inside a matcher's quotes.
 */
import type { CompletionContext, CompletionSource } from "@codemirror/autocomplete"
import { LRLanguage } from "@codemirror/language"
import { parser } from "@prometheus-io/lezer-promql"
import { createEditor } from "../editor.js"

const promql = LRLanguage.define({ name: "promql", parser })

export const FUNCTIONS = [
  "abs",
  "absent",
  "absent_over_time",
  "avg",
  "avg_over_time",
  "bottomk",
  "ceil",
  "changes",
  "clamp",
  "clamp_max",
  "clamp_min",
  "count",
  "count_over_time",
  "count_values",
  "delta",
  "deriv",
  "exp",
  "floor",
  "group",
  "histogram_quantile",
  "holt_winters",
  "idelta",
  "increase",
  "irate",
  "label_join",
  "label_replace",
  "last_over_time",
  "ln",
  "log2",
  "log10",
  "max",
  "max_over_time",
  "min",
  "min_over_time",
  "predict_linear",
  "quantile",
  "quantile_over_time",
  "rate",
  "resets",
  "round",
  "scalar",
  "sort",
  "sort_desc",
  "sqrt",
  "stddev",
  "stddev_over_time",
  "stdvar",
  "sum",
  "sum_over_time",
  "time",
  "timestamp",
  "topk",
  "vector"
]

// `metric{label="typ` (or `=~`, `!=`, `!~`, the metric optional): the label, its metric and
// the value typed so far, at the end of the text before the cursor.
const MATCHER = /(?:([A-Za-z_:][\w:]*)\s*\{[^{}]*?)?\b([A-Za-z_]\w*)\s*(?:=~|!~|!=|=)\s*"([^"\\]*)$/

/** What the cursor is in: a matcher's value, with its label and (if named) its metric. */
export const matcherAt = (before: string) => {
  const found = MATCHER.exec(before)
  if (found === null) return null
  return { metric: found[1], label: found[2]!, typed: found[3]! }
}

const labelValues =
  (
    valuesOf: (label: string, metric: string | undefined) => Promise<ReadonlyArray<string>>
  ): CompletionSource =>
  async (context: CompletionContext) => {
    const before = context.state.doc.sliceString(Math.max(0, context.pos - 500), context.pos)
    const matcher = matcherAt(before)
    if (matcher === null) return null
    const values = await valuesOf(matcher.label, matcher.metric)
    return {
      from: context.pos - matcher.typed.length,
      options: values.map((value) => ({ label: value, type: "constant", detail: matcher.label })),
      validFor: /^[^"\\]*$/
    }
  }

export const createPromqlEditor = (
  parent: HTMLElement,
  options: {
    readonly valuesOf: (label: string, metric: string | undefined) => Promise<ReadonlyArray<string>>
    readonly doc: string
    readonly onChange: (text: string) => void
    readonly onRun: () => void
    readonly onCancel: () => void
  }
) =>
  createEditor(parent, {
    ...options,
    extraSources: [labelValues(options.valuesOf)],
    label: "PromQL query",
    placeholder: "rate(http_requests_total[5m]) (Ctrl+Enter runs)",
    language: promql
  })
