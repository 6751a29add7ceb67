/**
 * A value read as Unix seconds the way Prometheus's date functions read it:
 * `time.Unix(int64(v), 0).UTC()`, so a fraction is cut toward zero. NaN, ±Inf and values
 * past int64 convert to the smallest int64 on amd64, which Go's calendar arithmetic wraps
 * around to its largest date, 292277026596-12-04 15:30:07 (what Prometheus answers).
 * JavaScript's `Date` covers ±275,000 years, floors fractions and reads years below 100
 * as 19xx, so the calendar is computed here: days since 1970 into a proleptic Gregorian
 * date (Howard Hinnant's `civil_from_days`).
 */

const SECONDS_PER_DAY = 86_400n
const INT64_LIMIT = 2 ** 63
const WRAPPED = 2n ** 63n - 1n

export interface CivilTime {
  readonly year: number
  /** 1–12. */
  readonly month: number
  /** 1–31. */
  readonly day: number
  readonly hour: number
  readonly minute: number
  /** 0 is Sunday. */
  readonly weekday: number
  /** 1–366. */
  readonly dayOfYear: number
  readonly daysInMonth: number
}

const isLeap = (year: number) => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0

const floorDiv = (a: bigint, b: bigint) => (a >= 0n ? a / b : -((-a + b - 1n) / b))

/** Year, month and day of the day `days` after 1970-01-01. */
const civilFromDays = (days: number) => {
  const z = days + 719_468
  const era = Math.floor(z / 146_097)
  const dayOfEra = z - era * 146_097
  const yearOfEra = Math.floor(
    (dayOfEra -
      Math.floor(dayOfEra / 1460) +
      Math.floor(dayOfEra / 36_524) -
      Math.floor(dayOfEra / 146_096)) /
      365
  )
  const dayOfYear =
    dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100))
  const shifted = Math.floor((5 * dayOfYear + 2) / 153)
  const day = dayOfYear - Math.floor((153 * shifted + 2) / 5) + 1
  const month = shifted < 10 ? shifted + 3 : shifted - 9
  return { year: yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day }
}

const DAYS_BEFORE_MONTH = [0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334]

export const civilTime = (value: number): CivilTime => {
  const seconds =
    Number.isFinite(value) && Math.abs(value) < INT64_LIMIT ? BigInt(Math.trunc(value)) : WRAPPED
  const days = floorDiv(seconds, SECONDS_PER_DAY)
  const secondOfDay = Number(seconds - days * SECONDS_PER_DAY)
  const { year, month, day } = civilFromDays(Number(days))
  const leap = isLeap(year)
  const monthDays = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
  return {
    year,
    month,
    day,
    hour: Math.floor(secondOfDay / 3600),
    minute: Math.floor(secondOfDay / 60) % 60,
    weekday: Number((((days + 4n) % 7n) + 7n) % 7n),
    dayOfYear: DAYS_BEFORE_MONTH[month - 1]! + day + (leap && month > 2 ? 1 : 0),
    daysInMonth: monthDays[month - 1]!
  }
}
