/** The PromQL editor: the parser sluice itself uses (lezer-promql) for highlighting. */
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

export const createPromqlEditor = (
  parent: HTMLElement,
  options: {
    readonly doc: string
    readonly onChange: (text: string) => void
    readonly onRun: () => void
    readonly onCancel: () => void
  }
) =>
  createEditor(parent, {
    ...options,
    label: "PromQL query",
    placeholder: "rate(http_requests_total[5m]) (Ctrl+Enter runs)",
    language: promql
  })
