/**
 * A timechart's bucket width: `span=<int><unit>` as written, or
 * chosen so the window holds at most `bins` buckets (100 by default) from the ladder that
 * gives Splunk's preset spans (15m → 10s, 60m → 1m, 4h → 5m, 24h → 30m, 7d and 30d →
 * 1d, a year → 1mon). Buckets start where the engine's `toStartOfInterval` puts them
 * (the first bin rounded down; days at UTC midnight, months on the 1st).
 */
import { quoteString } from "../../engine/Sql.js"
import { refuse } from "./Refusal.js"
import { TIME_UNITS } from "./TimeModifier.js"

type EngineUnit = "SECOND" | "MINUTE" | "HOUR" | "DAY" | "WEEK" | "MONTH"

export interface Span {
  readonly amount: number
  readonly unit: EngineUnit
  /** Its length in milliseconds (a month as 30.44 days), to count buckets. */
  readonly ms: number
}

const UNITS: Readonly<Record<(typeof TIME_UNITS)[number], readonly [EngineUnit, number, number]>> =
  {
    s: ["SECOND", 1, 1e3],
    m: ["MINUTE", 1, 60e3],
    h: ["HOUR", 1, 3_600e3],
    d: ["DAY", 1, 86_400e3],
    w: ["WEEK", 1, 604_800e3],
    mon: ["MONTH", 1, 2_629_746e3],
    q: ["MONTH", 3, 2_629_746e3],
    y: ["MONTH", 12, 2_629_746e3]
  }

/** The largest bucket count a timechart makes over a known window. */
export const MAX_BUCKETS = 10_000
export const DEFAULT_BINS = 100

const span = (amount: number, unit: keyof typeof UNITS): Span => {
  const [engineUnit, factor, ms] = UNITS[unit]
  return { amount: amount * factor, unit: engineUnit, ms: amount * factor * ms }
}

const LADDER: ReadonlyArray<Span> = [
  span(1, "s"),
  span(5, "s"),
  span(10, "s"),
  span(30, "s"),
  span(1, "m"),
  span(5, "m"),
  span(10, "m"),
  span(30, "m"),
  span(1, "h"),
  span(1, "d"),
  span(1, "mon")
]

/** `span=` text (`30m`, `1d`, `2mon`; a bare number is seconds). */
export const parseSpan = (text: string, at: number): Span => {
  const match = /^(\d{1,6})([a-z]*)$/i.exec(text)
  const unit = (match?.[2] || "s").toLowerCase()
  const amount = Number(match?.[1] ?? 0)
  if (match === null || amount < 1 || !(TIME_UNITS as ReadonlyArray<string>).includes(unit))
    refuse(
      "timechart",
      at,
      `span=${text} is not a span: a whole number and one of ${TIME_UNITS.join(", ")} (e.g. span=5m)`
    )
  return span(amount, unit as keyof typeof UNITS)
}

/** The smallest ladder span that keeps `range` ms within `bins` buckets (years beyond it). */
export const spanForBins = (range: number, bins: number): Span =>
  LADDER.find((s) => range / s.ms <= bins) ??
  span(Math.max(1, Math.ceil(range / (bins * UNITS.y[2] * 12))), "y")

export const interval = (s: Span) => `INTERVAL ${s.amount} ${s.unit}`

/** The start of the bucket holding `time` (SQL of a DateTime64). */
export const bucketOf = (s: Span, time: string) =>
  `toDateTime64(toStartOfInterval(${time}, ${interval(s)}), 3, ${quoteString("UTC")})`

/** An epoch-millisecond instant as a DateTime64 literal. */
export const instant = (ms: number) =>
  `fromUnixTimestamp64Milli(toInt64(${Math.trunc(ms)}), ${quoteString("UTC")})`
