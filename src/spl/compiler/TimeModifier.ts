/**
 * Time modifiers: `now`, epoch seconds, or
 * `[+|-]<int><unit>[@<snap>]` (`-24h`, `-7d@d`, `@w0`) relative to the search's start,
 * with units s, m, h, d, w, mon, q, y (and their long names). The offset applies first,
 * then the snap rounds down to the start of the unit (`@w0` Sunday, `@w1` Monday …), in
 * UTC (the time zone the subset assumes). Months step by calendar, clamped to the
 * month's last day.
 */
import { refuse } from "./Refusal.js"

export const TIME_UNITS = ["s", "m", "h", "d", "w", "mon", "q", "y"] as const
type Unit = (typeof TIME_UNITS)[number]

const SYNONYMS: Readonly<Record<string, Unit>> = {
  s: "s",
  sec: "s",
  secs: "s",
  second: "s",
  seconds: "s",
  m: "m",
  min: "m",
  mins: "m",
  minute: "m",
  minutes: "m",
  h: "h",
  hr: "h",
  hrs: "h",
  hour: "h",
  hours: "h",
  d: "d",
  day: "d",
  days: "d",
  w: "w",
  week: "w",
  weeks: "w",
  mon: "mon",
  month: "mon",
  months: "mon",
  q: "q",
  qtr: "q",
  qtrs: "q",
  quarter: "q",
  quarters: "q",
  y: "y",
  yr: "y",
  yrs: "y",
  year: "y",
  years: "y"
}

const FIXED: Partial<Record<Unit, number>> = {
  s: 1e3,
  m: 60e3,
  h: 3_600e3,
  d: 86_400e3,
  w: 604_800e3
}
const MONTHS: Partial<Record<Unit, number>> = { mon: 1, q: 3, y: 12 }

const addMonths = (ms: number, months: number) => {
  const date = new Date(ms)
  const target = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + months, 1))
  const lastDay = new Date(
    Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)
  ).getUTCDate()
  target.setUTCDate(Math.min(date.getUTCDate(), lastDay))
  target.setUTCHours(
    date.getUTCHours(),
    date.getUTCMinutes(),
    date.getUTCSeconds(),
    date.getUTCMilliseconds()
  )
  return target.getTime()
}

const snap = (ms: number, unit: Unit, weekday: number) => {
  const fixed = FIXED[unit]
  if (unit === "w") {
    const day = Math.floor(ms / 86_400e3) * 86_400e3
    const back = (new Date(day).getUTCDay() - weekday + 7) % 7
    return day - back * 86_400e3
  }
  if (fixed !== undefined) return Math.floor(ms / fixed) * fixed
  const date = new Date(ms)
  const month = date.getUTCMonth()
  const start = unit === "y" ? 0 : unit === "q" ? month - (month % 3) : month
  return Date.UTC(date.getUTCFullYear(), start, 1)
}

const MODIFIER = /^(?:([+-])(\d*)([a-z]+))?(?:@([a-z]+?)([0-7])?)?$/

/** Epoch milliseconds of `text` for a search started at `now`; `parameter` names it in a refusal. */
export const resolveTime = (parameter: string, text: string, now: number): number => {
  const trimmed = text.trim()
  if (trimmed === "now" || trimmed === "") return now
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000)
  const match = MODIFIER.exec(trimmed)
  const unit = match?.[3] === undefined ? undefined : SYNONYMS[match[3]]
  const snapUnit = match?.[4] === undefined ? undefined : SYNONYMS[match[4]]
  if (
    match === null ||
    (match[3] !== undefined && unit === undefined) ||
    (match[4] !== undefined && snapUnit === undefined) ||
    (match[5] !== undefined && snapUnit !== "w") ||
    (match[1] === undefined && match[4] === undefined)
  )
    return refuse(
      parameter,
      0,
      `'${text}' is not a time: use now, epoch seconds or e.g. -24h, -7d@d, @w1`
    )
  let at = now
  if (unit !== undefined) {
    const amount = (match[1] === "-" ? -1 : 1) * (match[2] === "" ? 1 : Number(match[2]))
    const fixed = FIXED[unit]
    at = fixed !== undefined ? at + amount * fixed : addMonths(at, amount * MONTHS[unit]!)
  }
  const resolved = snapUnit === undefined ? at : snap(at, snapUnit, Number(match[5] ?? 0) % 7)
  // Dates exist within ±8.64e15 ms of the epoch.
  return Number.isFinite(resolved) && Math.abs(resolved) <= 8.64e15
    ? resolved
    : refuse(parameter, 0, `'${text}' is further than a date can be`)
}
