/**
 * The options of `timechart`: `span`, `bins`, `limit`, `useother`, `usenull`,
 * `nullstr`, `otherstr`, `cont`, with Splunk's defaults. A known window (both bounds)
 * chooses the span for `bins` and bounds the zero-filled buckets; without one the span
 * is 1d unless given, and buckets are filled between the first and last that hold events.
 */
import type { SearchWindow } from "../../../domain/SplCompiler.js"
import type { Command } from "./Ast.js"
import { refuse } from "./Refusal.js"
import { DEFAULT_BINS, MAX_BUCKETS, parseSpan, spanForBins } from "./TimechartSpan.js"
import type { Span } from "./TimechartSpan.js"

type Of<C extends Command["command"]> = Extract<Command, { command: C }>

export interface TimechartOptions {
  readonly span: Span
  readonly limit: number
  readonly useother: boolean
  readonly usenull: boolean
  readonly nullstr: string
  readonly otherstr: string
  readonly cont: boolean
  /** The window filled with buckets, in epoch ms; null when the search has no such bound. */
  readonly from: number | null
  readonly to: number | null
}

const TRUE = ["true", "t", "1", "yes"]
const FALSE = ["false", "f", "0", "no"]

export const readOptions = (command: Of<"timechart">, window: SearchWindow): TimechartOptions => {
  const given = new Map(command.options.map((o) => [o.name, o]))
  const text = (name: string, fallback: string) => given.get(name)?.value ?? fallback
  const flag = (name: string, fallback: boolean) => {
    const option = given.get(name)
    if (option === undefined) return fallback
    const value = option.value.toLowerCase()
    if (TRUE.includes(value)) return true
    if (FALSE.includes(value)) return false
    return refuse("timechart", option.at, `${name}=${option.value} is neither true nor false`)
  }
  const whole = (name: string, fallback: number, min: number, max: number) => {
    const option = given.get(name)
    if (option === undefined) return fallback
    const n = /^\d{1,9}$/.test(option.value) ? Number(option.value) : Number.NaN
    return n >= min && n <= max
      ? n
      : refuse(
          "timechart",
          option.at,
          `${name}=${option.value} is not a whole number ${min} to ${max}`
        )
  }
  const bins = whole("bins", DEFAULT_BINS, 1, MAX_BUCKETS)
  const limit = whole("limit", 10, 0, MAX_BUCKETS)
  const known = window.earliest !== undefined && window.latest !== undefined
  const spanOption = given.get("span")
  const span =
    spanOption !== undefined
      ? parseSpan(spanOption.value, spanOption.at)
      : known
        ? spanForBins(Math.max(0, window.latest! - window.earliest!), bins)
        : parseSpan("1d", command.at)
  if (known && (window.latest! - window.earliest!) / span.ms > MAX_BUCKETS)
    refuse(
      "timechart",
      spanOption?.at ?? command.at,
      `span=${spanOption?.value ?? ""} makes more than ${MAX_BUCKETS} buckets in this window; use a larger span`
    )
  return {
    span,
    limit,
    useother: flag("useother", true),
    usenull: flag("usenull", true),
    nullstr: text("nullstr", "NULL"),
    otherstr: text("otherstr", "OTHER"),
    cont: flag("cont", true),
    from: known ? window.earliest! : null,
    to: known ? window.latest! : null
  }
}
