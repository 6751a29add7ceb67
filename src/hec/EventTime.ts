/**
 * The protocol's `time`: epoch seconds, a number or a numeric string, fraction kept (to
 * the millisecond `_time` holds). Some senders (`splunk-events`) send milliseconds; as
 * Vector does, a value past the year 2400 in seconds is read as milliseconds.
 */
const MILLISECONDS_FROM = Date.UTC(2400, 0, 1) / 1000
// What a `DateTime64(3)` holds; outside it the engine would store another instant.
const EARLIEST = Date.UTC(1900, 0, 1)
const LATEST = Date.UTC(2300, 0, 1) - 1
const NUMERIC = /^-?\d+(\.\d+)?$/

type TimeReading =
  | { readonly _tag: "absent" }
  | { readonly _tag: "at"; readonly millis: number }
  | { readonly _tag: "notNumeric" }
  | { readonly _tag: "outOfRange" }

const ABSENT: TimeReading = { _tag: "absent" }
const NOT_NUMERIC: TimeReading = { _tag: "notNumeric" }
const OUT_OF_RANGE: TimeReading = { _tag: "outOfRange" }

const secondsOf = (value: unknown): number => {
  if (typeof value === "number") return value
  if (typeof value !== "string") return Number.NaN
  const text = value.trim()
  return NUMERIC.test(text) ? Number(text) : Number.NaN
}

// Plain code: this runs once per event.
export const readTime = (value: unknown): TimeReading => {
  if (value === undefined || value === null) return ABSENT
  const seconds = secondsOf(value)
  if (!Number.isFinite(seconds)) return NOT_NUMERIC
  const millis = Math.round(seconds > MILLISECONDS_FROM ? seconds : seconds * 1000)
  return millis < EARLIEST || millis > LATEST ? OUT_OF_RANGE : { _tag: "at", millis }
}
