/**
 * `info(v [, {data label selector}])`, Prometheus 3's (experimental) join with info
 * metrics: each series of `v` gains the data labels of the info series (`target_info`
 * unless the selector names others by `__name__`) that share its identifying labels,
 * `instance` and `job`. Per step, of two info series with one name and identity the newer
 * sample wins (a target's labels changed within the lookback) and equal times are an
 * error; labels `v` already has are kept; a selector's other matchers pick which info
 * series count and which of their labels are copied; a series no info series matched is
 * dropped when some data matcher needs a value, and kept as it is otherwise. Info series
 * themselves pass through unchanged.
 */
import { Effect } from "effect"
import type { Call, Expr, Matcher } from "../parser/Ast.js"
import { matcherMatches } from "./Matchers.js"
import type { EvalContext } from "../read/Selectors.js"
import { LOOKBACK, newestAt } from "../read/Selectors.js"
import type { Labels } from "../../SeriesLabels.js"
import { labelSet } from "../../SeriesLabels.js"
import type { RawSeries, Value } from "./Values.js"
import { EvaluationError, showLabels, VectorBuilder } from "./Values.js"

const IDENTIFYING = ["instance", "job"] as const
const DEFAULT_INFO = "target_info"

const quoteMeta = (value: string) => value.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")

/** An info metric's name with the identifying labels a series has, as one key. */
const signature = (name: string, labels: Labels) =>
  [name, ...IDENTIFYING.map((l) => (labels[l] === undefined ? "" : `${l}=${labels[l]}`))].join(
    "\u0000"
  )

const selectorOf = (arg: Expr | undefined) => {
  if (arg === undefined) return undefined
  if (arg.kind !== "selector" || (arg.parens ?? 0) > 0 || arg.offset !== 0 || arg.at !== undefined)
    throw new EvaluationError("info(): the second argument must be a label selector", true)
  return arg.matchers
}

export const infoCall = <E>(ctx: EvalContext<E>, node: Call, steps: ReadonlyArray<number>) =>
  Effect.gen(function* () {
    if (node.args.length < 1 || node.args.length > 2)
      throw new EvaluationError("info() takes an instant vector and an optional selector", true)
    const selector = selectorOf(node.args[1])
    const base = yield* ctx.evaluate(node.args[0]!, steps)
    if (base.kind !== "vector")
      throw new EvaluationError("info(): the first argument must be an instant vector", true)

    const nameMatchers = selector
      ? selector.filter((m) => m.name === "__name__")
      : [{ name: "__name__", type: "=" as const, value: DEFAULT_INFO }]
    const dataMatchers = (selector ?? []).filter((m) => m.name !== "__name__")
    const dataLabels = new Set(dataMatchers.map((m) => m.name))
    const isInfo = (labels: Labels) =>
      nameMatchers.length > 0 && nameMatchers.every((m) => matcherMatches(m, labels.__name__ ?? ""))

    // The info series whose identity some series of `v` has, read like a selector at each step.
    const identities = new Map<string, Set<string>>()
    for (const s of base.series) {
      if (isInfo(s.labels)) continue
      for (const label of IDENTIFYING) {
        const value = s.labels[label]
        if (value === undefined || value === "") continue
        identities.set(label, (identities.get(label) ?? new Set()).add(value))
      }
    }
    let infos: ReadonlyArray<RawSeries> = []
    if (identities.size > 0) {
      const matchers: Array<Matcher> = [
        ...(selector?.some((m) => m.name === "__name__")
          ? []
          : [{ name: "__name__", type: "=" as const, value: DEFAULT_INFO }]),
        ...[...identities].map(([name, values]) => ({
          name,
          type: "=~" as const,
          value: [...values].map(quoteMeta).join("|")
        })),
        ...(selector ?? [])
      ]
      infos = yield* ctx.fetch(matchers, Math.min(...steps) - LOOKBACK, Math.max(...steps))
    }
    const infoNames = [...new Set(infos.map((s) => s.labels.__name__ ?? ""))]
    const needsInfo = dataMatchers.some((m) => !matcherMatches(m, ""))

    const out = new VectorBuilder(steps.length)
    steps.forEach((t, step) => {
      // The newest info sample per name and identity at this step.
      const bySignature = new Map<string, { labels: Labels; time: number }>()
      for (const info of infos) {
        const index = newestAt(info, t)
        if (index === -1) continue
        const key = signature(info.labels.__name__ ?? "", info.labels)
        const time = info.times[index]!
        const existing = bySignature.get(key)
        if (existing !== undefined && existing.time === time)
          throw new EvaluationError(
            `found duplicate series for info metric: existing ${showLabels(existing.labels)} @ ${existing.time}, new ${showLabels(info.labels)} @ ${time}`
          )
        if (existing === undefined || existing.time < time)
          bySignature.set(key, { labels: info.labels, time })
      }
      for (const s of base.series) {
        const value = s.values[step]
        if (value === undefined) continue
        if (isInfo(s.labels)) {
          out.add(s.labels, step, value)
          continue
        }
        const added = new Map<string, string>()
        let matched = false
        for (const name of infoNames) {
          const info = bySignature.get(signature(name, s.labels))
          if (info === undefined) continue
          matched = true
          for (const [label, labelValue] of Object.entries(info.labels)) {
            if (label === "__name__") continue
            if (dataLabels.size > 0 && !dataLabels.has(label)) continue
            const earlier = added.get(label)
            if (earlier !== undefined && earlier !== labelValue)
              throw new EvaluationError(`conflicting label: ${label}`)
            if (Object.hasOwn(s.labels, label)) continue
            added.set(label, labelValue)
          }
        }
        if (!matched && needsInfo) continue
        if (added.size === 0) out.add(s.labels, step, value)
        else {
          const labels = labelSet(s.labels)
          for (const [label, labelValue] of added) labels[label] = labelValue
          out.add(labels, step, value)
        }
      }
    })
    return out.vector() satisfies Value
  })
