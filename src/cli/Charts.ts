/**
 * Charts drawn with characters, for a terminal: counts over time as vertical bars, series
 * of numbers as lines of points. Wider data is folded into the columns there are.
 */
const BLOCKS = [" ", "▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]
const MARKS = ["●", "○", "◆", "◇", "▲", "△", "■", "□"]

export const terminalWidth = () => Math.max(40, Math.min(process.stdout.columns ?? 100, 160))

const compact = (n: number, digits = 3) =>
  Math.abs(n) >= 1e9
    ? `${(n / 1e9).toPrecision(digits)}G`
    : Math.abs(n) >= 1e6
      ? `${(n / 1e6).toPrecision(digits)}M`
      : Math.abs(n) >= 1e4
        ? `${(n / 1e3).toPrecision(digits)}k`
        : Number.isInteger(n)
          ? String(n)
          : n.toPrecision(digits + 1)

/** Folds `values` into at most `width` columns, summing (counts) or averaging (levels). */
const fold = (values: ReadonlyArray<number>, width: number, sum: boolean) => {
  if (values.length <= width) return values
  const columns: Array<number> = []
  for (let c = 0; c < width; c++) {
    const from = Math.floor((c * values.length) / width)
    const to = Math.floor(((c + 1) * values.length) / width)
    const part = values.slice(from, Math.max(to, from + 1))
    const total = part.reduce((a, b) => a + b, 0)
    columns.push(sum ? total : total / part.length)
  }
  return columns
}

/** Counts per time bucket as bars `height` lines high, the largest count on the axis. */
export const bars = (
  counts: ReadonlyArray<number>,
  firstLabel: string,
  lastLabel: string,
  height = 6
): string => {
  const axis = compact(Math.max(0, ...counts)).length + 1
  const room = terminalWidth() - axis - 2
  // Few buckets are drawn wider, so that their times can be told apart.
  const repeat = Math.max(1, Math.min(3, Math.floor(room / Math.max(1, counts.length))))
  const columns = fold(counts, room, true).flatMap((v) => Array.from({ length: repeat }, () => v))
  const max = Math.max(0, ...columns)
  const lines: Array<string> = []
  for (let row = height - 1; row >= 0; row--) {
    const label = row === height - 1 ? compact(max) : ""
    const cells = columns.map((value) => {
      const eighths = max === 0 ? 0 : Math.round((value / max) * height * 8) - row * 8
      return BLOCKS[Math.max(0, Math.min(8, eighths))]!
    })
    // A bucket with events never looks empty.
    if (row === 0) columns.forEach((v, i) => v > 0 && cells[i] === " " && (cells[i] = "▁"))
    lines.push(`${label.padStart(axis)} │${cells.join("").trimEnd()}`)
  }
  const span = columns.length
  const gap = Math.max(1, span - firstLabel.length - lastLabel.length)
  lines.push(`${" ".repeat(axis)} └${"─".repeat(span)}`)
  lines.push(`${" ".repeat(axis + 2)}${firstLabel}${" ".repeat(gap)}${lastLabel}`)
  return lines.join("\n")
}

export interface Series {
  readonly name: string
  /** Values in time order; NaN where the series has no sample. */
  readonly values: ReadonlyArray<number>
}

/** Series over the same time steps as points on a grid, one mark per series, with a legend. */
export const lines = (
  series: ReadonlyArray<Series>,
  firstLabel: string,
  lastLabel: string,
  height = 12
): string => {
  const finite = series.flatMap((s) => s.values.filter(Number.isFinite))
  if (finite.length === 0) return "(no samples)"
  let low = Math.min(...finite)
  let high = Math.max(...finite)
  // A flat series sits on the axis' low end (zero for a count that stayed zero).
  if (low === high) high = low + Math.max(1, Math.abs(low))
  // Enough digits that the axis' two ends read differently.
  let digits = 3
  while (digits < 12 && compact(low, digits) === compact(high, digits)) digits++
  const lowLabel = compact(low, digits)
  const highLabel = compact(high, digits)
  const axis = Math.max(lowLabel.length, highLabel.length) + 1
  const steps = Math.max(...series.map((s) => s.values.length))
  const room = terminalWidth() - axis - 2
  // Few steps are drawn wider, so that the time labels under them have room.
  const repeat = Math.max(1, Math.min(4, Math.floor(room / Math.max(1, steps))))
  const width = Math.min(steps * repeat, room)
  const grid = Array.from({ length: height }, () => Array.from({ length: width }, () => " "))
  series.forEach((s, index) =>
    fold(s.values, width, false)
      .flatMap((v) => Array.from({ length: repeat }, () => v))
      .slice(0, width)
      .forEach((value, column) => {
        if (!Number.isFinite(value)) return
        const row = Math.round(((value - low) / (high - low)) * (height - 1))
        grid[height - 1 - row]![column] = MARKS[index % MARKS.length]!
      })
  )
  const out = grid.map((cells, i) => {
    const label = i === 0 ? highLabel : i === height - 1 ? lowLabel : ""
    return `${label.padStart(axis)} │${cells.join("").trimEnd()}`
  })
  out.push(`${" ".repeat(axis)} └${"─".repeat(width)}`)
  out.push(
    `${" ".repeat(axis + 2)}${firstLabel}${" ".repeat(Math.max(1, width - firstLabel.length - lastLabel.length))}${lastLabel}`
  )
  series.forEach((s, index) => out.push(`  ${MARKS[index % MARKS.length]} ${s.name}`))
  return out.join("\n")
}

export interface Sample {
  readonly series: string
  /** Seconds since the epoch. */
  readonly time: number
  readonly value: number
}

/**
 * Samples of several series taken at their own times as `lines` over the union of those
 * times (a series without a sample at a time has a gap there), labelled by `at`.
 */
export const timeLines = (
  samples: ReadonlyArray<Sample>,
  at: (seconds: number) => string,
  height?: number
): string => {
  const times = [...new Set(samples.map((s) => s.time))].sort((a, b) => a - b)
  if (times.length === 0) return "(no samples)"
  const column = new Map(times.map((t, i) => [t, i]))
  const bySeries = new Map<string, Array<number>>()
  for (const s of samples) {
    let values = bySeries.get(s.series)
    if (values === undefined) bySeries.set(s.series, (values = times.map(() => NaN)))
    values[column.get(s.time)!] = s.value
  }
  const first = at(times[0]!)
  const last = at(times[times.length - 1]!)
  // "2026-03-01 12:00 … 13:00": the date once when both ends are on it.
  const [firstDay, lastDay] = [first.split(" ")[0], last.split(" ")[0]]
  return lines(
    [...bySeries].map(([name, values]) => ({ name, values })),
    first,
    firstDay === lastDay && last.includes(" ") ? last.slice(last.indexOf(" ") + 1) : last,
    height
  )
}
