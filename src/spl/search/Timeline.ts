/**
 * The timeline: counts of the filtered events per bucket across the whole window,
 * chronological and zero-filled. The span is the smallest of a fixed ladder that keeps
 * the window within `MAX_TIMELINE_BUCKETS` (a day in 30-minute buckets, a week in days,
 * a year in calendar months, as Splunk's time-picker presets go), and the first
 * bucket starts at the window's start rounded down to the span, in UTC.
 */
import { TimelineBucket } from "../../../domain/api/SplApi.js"
import type { Window } from "./Window.js"

export const MAX_TIMELINE_BUCKETS = 100

const FIXED_SPANS_MS = [1, 10, 60, 300, 600, 1_800, 3_600, 86_400].map((s) => s * 1000)

/** Buckets of a fixed length in milliseconds, or of whole calendar months. */
export type Span = { readonly ms: number } | { readonly months: number }

export interface Timeline {
  readonly span: Span
  /** Start of each bucket, epoch milliseconds, chronological. */
  readonly starts: ReadonlyArray<number>
  /** SQL of a row's 0-based bucket (an Int32) from its `_time`. */
  readonly keySql: string
}

const monthIndex = (ms: number) => {
  const date = new Date(ms)
  return date.getUTCFullYear() * 12 + date.getUTCMonth()
}

const monthStart = (index: number) =>
  Date.UTC(Math.floor(index / 12), index - 12 * Math.floor(index / 12), 1)

const fixed = (window: Window, ms: number): Timeline => {
  const first = Math.floor(window.earliest / ms) * ms
  const starts: Array<number> = []
  for (let at = first; at < window.latest; at += ms) starts.push(at)
  return {
    span: { ms },
    starts,
    keySql: `toInt32(intDiv(toUnixTimestamp64Milli(_time) - ${first}, ${ms}))`
  }
}

const calendar = (window: Window, months: number): Timeline => {
  const first = Math.floor(monthIndex(window.earliest) / months) * months
  const starts: Array<number> = []
  for (let index = first; monthStart(index) < window.latest; index += months)
    starts.push(monthStart(index))
  return {
    span: { months },
    starts,
    keySql: `toInt32(intDiv(toYear(_time) * 12 + toMonth(_time) - 1 - ${first}, ${months}))`
  }
}

export const timelineOf = (window: Window): Timeline => {
  const length = window.latest - window.earliest
  for (const ms of FIXED_SPANS_MS) {
    // One more bucket than the length needs when the start is not on a span boundary.
    if (Math.ceil(length / ms) + 1 <= MAX_TIMELINE_BUCKETS) return fixed(window, ms)
  }
  const months = monthIndex(window.latest) - monthIndex(window.earliest) + 1
  if (months <= MAX_TIMELINE_BUCKETS) return calendar(window, 1)
  const years = Math.ceil((months / 12 + 1) / (MAX_TIMELINE_BUCKETS - 1))
  return calendar(window, 12 * years)
}

/** The buckets with their counts (`counts` by bucket key), zero where none. */
export const zeroFilled = (timeline: Timeline, counts: ReadonlyMap<number, number>) =>
  timeline.starts.map(
    (start, key) =>
      new TimelineBucket({ time: new Date(start).toISOString(), count: counts.get(key) ?? 0 })
  )
