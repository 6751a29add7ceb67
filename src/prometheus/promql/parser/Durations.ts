/** Prometheus durations (`1h30m`, `90s`, `1.5`…) and times (RFC 3339 or Unix seconds), in ms. */
const UNITS: Record<string, number> = {
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
  w: 604_800_000,
  y: 31_536_000_000
}

const DURATION = /^((\d+)y)?((\d+)w)?((\d+)d)?((\d+)h)?((\d+)m)?((\d+)s)?((\d+)ms)?$/

/** A duration string in ms; `NaN` when it is not one. */
export const parseDuration = (text: string): number => {
  if (text === "" || !DURATION.test(text)) return NaN
  let total = 0
  for (const [, amount, unit] of text.matchAll(/(\d+)(ms|y|w|d|h|m|s)/g))
    total += Number(amount) * UNITS[unit!]!
  return total
}

/** A `step` or `timeout` parameter: a duration string or (float) seconds. */
export const parseStep = (text: string): number => {
  const seconds = Number(text)
  if (text.trim() !== "" && Number.isFinite(seconds)) return Math.round(seconds * 1000)
  return parseDuration(text)
}

/** A time parameter: Unix seconds (rounded to the ms, as Prometheus does) or RFC 3339 (truncated). */
export const parseTime = (text: string): number => {
  const seconds = Number(text)
  if (text.trim() !== "" && !Number.isNaN(seconds)) return Math.round(seconds * 1000)
  const ms = Date.parse(text)
  return /^\d{4}-\d{2}-\d{2}T/.test(text) ? ms : NaN
}
