import type { DateTime } from "effect"

const pad = (n: number, width = 2) => String(n).padStart(width, "0")

type Instant = string | DateTime.Utc

const dateOf = (value: Instant) => new Date(typeof value === "string" ? value : value.epochMillis)

/**
 * An instant as `2026-11-29 03:48:30` in the browser's time zone (the exact instant in its
 * tooltip): sortable and short, where the API's ISO text would fill a column.
 */
export const formatLocal = (value: Instant, milliseconds = false) => {
  const date = dateOf(value)
  if (Number.isNaN(date.getTime())) return String(value)
  const day = `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`
  const time = `${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`
  return `${day} ${time}${milliseconds ? `.${pad(date.getMilliseconds(), 3)}` : ""}`
}

export const Time = ({ value, milliseconds }: { value: Instant; milliseconds?: boolean }) => {
  const date = dateOf(value)
  const exact = Number.isNaN(date.getTime()) ? String(value) : date.toISOString()
  return (
    <time dateTime={exact} title={exact}>
      {formatLocal(value, milliseconds)}
    </time>
  )
}
