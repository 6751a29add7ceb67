/**
 * The protocol's `time`: epoch seconds, a number or a numeric string, fraction kept (to
 * the millisecond `_time` holds). Some senders (`splunk-events`) send milliseconds; as
 * Vector does, a value past the year 2400 in seconds is read as milliseconds.
 */
import { Option } from "effect"

const MILLISECONDS_FROM = Date.UTC(2400, 0, 1) / 1000
// What a `DateTime64(3)` holds; outside it the engine would store another instant.
const EARLIEST = Date.UTC(1900, 0, 1)
const LATEST = Date.UTC(2300, 0, 1) - 1
const NUMERIC = /^-?\d+(\.\d+)?$/

export type TimeReading =
  | { readonly _tag: "absent" }
  | { readonly _tag: "at"; readonly millis: number }
  | { readonly _tag: "notNumeric" }
  | { readonly _tag: "outOfRange" }

export const readTime = (value: unknown): TimeReading => {
  if (value === undefined || value === null) return { _tag: "absent" }
  const seconds = Option.liftPredicate(
    typeof value === "number"
      ? value
      : typeof value === "string" && NUMERIC.test(value.trim())
        ? Number(value.trim())
        : Number.NaN,
    Number.isFinite
  )
  if (Option.isNone(seconds)) return { _tag: "notNumeric" }
  const millis = Math.round(
    seconds.value > MILLISECONDS_FROM ? seconds.value : seconds.value * 1000
  )
  return millis < EARLIEST || millis > LATEST ? { _tag: "outOfRange" } : { _tag: "at", millis }
}
