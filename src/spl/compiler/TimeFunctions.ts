/**
 * The date/time eval functions of the subset: `now()` (the search's start),
 * `relative_time(t, "-1d@d")` with the modifiers of TimeModifier.ts, `strftime(t, fmt)`
 * and `strptime(s, fmt)` in UTC. Times are epoch seconds, as eval sees `_time`. Formats
 * and modifiers are literals, turned into SQL here; a time argument is read once (a
 * lambda), so nesting these calls does not repeat their arguments' SQL.
 */
import { quoteString } from "../../engine/Sql.js"
import { Refusal, refuse } from "./Refusal.js"
import { asNumber, asText, numberLiteral } from "./Rows.js"
import type { Value } from "./Rows.js"
import { formatPieces, formatSql } from "./TimeFormat.js"
import { resolveTime } from "./TimeModifier.js"

export interface TimeCallContext {
  readonly command: string
  readonly at: number
  readonly now: number
}

export const TIME_FUNCTIONS = ["now", "relative_time", "strftime", "strptime"] as const

/** `body(__t)` over the time `seconds` as a DateTime64, `seconds` computed once. */
const overTime = (seconds: string, body: (t: string) => string) =>
  `arrayElement(arrayMap(__t -> ${body("__t")}, [toDateTime64(${seconds}, 3, 'UTC')]), 1)`

const seconds = (t: string) => `(toUnixTimestamp64Milli(${t}) / 1000)`

/** What one step of `word` is, read the way TimeModifier.ts reads it (from the epoch). */
const unitOf = (word: string): string => {
  const step = resolveTime("unit", `+1${word}`, 0)
  const fixed: Readonly<Record<number, string>> = {
    1e3: "s",
    60e3: "m",
    3_600e3: "h",
    86_400e3: "d",
    604_800e3: "w",
    [31 * 86_400e3]: "mon",
    [90 * 86_400e3]: "q",
    [365 * 86_400e3]: "y"
  }
  return fixed[step]!
}

const MONTHS: Readonly<Record<string, number>> = { mon: 1, q: 3, y: 12 }
const MILLIS: Readonly<Record<string, number>> = {
  s: 1e3,
  m: 60e3,
  h: 3_600e3,
  d: 86_400e3,
  w: 604_800e3
}
const SNAPS: Readonly<Record<string, string>> = {
  s: "toStartOfSecond",
  m: "toStartOfMinute",
  h: "toStartOfHour",
  d: "toStartOfDay",
  mon: "toStartOfMonth",
  q: "toStartOfQuarter",
  y: "toStartOfYear"
}

/** `t` moved by a modifier (offset, then snap down), as TimeModifier.ts resolves it. */
const relativeSql = (context: TimeCallContext, modifier: string, t: string): string => {
  try {
    resolveTime("relative_time", modifier, 0)
  } catch (error) {
    if (error instanceof Refusal) refuse(context.command, context.at, error.reason)
    throw error
  }
  const text = modifier.trim()
  if (text === "now" || text === "") return t
  if (/^\d+(\.\d+)?$/.test(text)) return `toDateTime64(${numberLiteral(Number(text))}, 3, 'UTC')`
  const [, sign, amount, unit, snap, weekday] =
    /^(?:([+-])(\d*)([a-z]+))?(?:@([a-z]+?)([0-7])?)?$/.exec(text)!
  let sql = t
  if (unit !== undefined) {
    const n = (sign === "-" ? -1 : 1) * (amount === "" ? 1 : Number(amount))
    const u = unitOf(unit)
    sql =
      MONTHS[u] !== undefined
        ? `addMonths(${sql}, ${n * MONTHS[u]!})`
        : `addMilliseconds(${sql}, ${n * MILLIS[u]!})`
  }
  if (snap === undefined) return sql
  const s = unitOf(snap)
  if (s !== "w") return `toDateTime64(${SNAPS[s]!}(${sql}), 3, 'UTC')`
  const day = Number(weekday ?? 0) % 7
  // toDayOfWeek is 1 (Monday) … 7 (Sunday); % 7 makes Sunday 0, as @w0 counts.
  return `toDateTime64(toStartOfDay(${sql}) - toIntervalDay((toDayOfWeek(${sql}) % 7 - ${day} + 7) % 7), 3, 'UTC')`
}

export const timeCall = (
  context: TimeCallContext,
  name: string,
  args: ReadonlyArray<Value>,
  literals: ReadonlyArray<string | null>
): Value => {
  const count = name === "now" ? 0 : 2
  if (args.length !== count)
    refuse(context.command, context.at, `${name}() takes ${count} arguments`)
  const literal = (i: number, what: string) =>
    literals[i] ??
    refuse(context.command, context.at, `${name}() takes its ${what} as a "quoted" literal`)
  switch (name) {
    case "now":
      return { sql: numberLiteral(context.now / 1000), kind: "number" }
    case "relative_time": {
      const modifier = literal(1, "modifier")
      return {
        sql: overTime(asNumber(args[0]!), (t) => seconds(relativeSql(context, modifier, t))),
        kind: "number"
      }
    }
    case "strftime": {
      const { pieces, unknown } = formatPieces(literal(1, "format"), false)
      if (unknown !== null)
        refuse(context.command, context.at, `strftime() does not know ${unknown}`)
      return {
        sql: overTime(asNumber(args[0]!), (t) => formatSql(pieces, t)),
        kind: "string"
      }
    }
    default: {
      const { pieces, unknown } = formatPieces(literal(1, "format"), true)
      if (unknown !== null) refuse(context.command, context.at, `strptime() cannot read ${unknown}`)
      const format = pieces.map((p) => ("format" in p ? p.format : "")).join("")
      return {
        sql: `toFloat64(toUnixTimestamp(parseDateTimeOrNull(${asText(args[0]!)}, ${quoteString(format)}, 'UTC')))`,
        kind: "number"
      }
    }
  }
}
