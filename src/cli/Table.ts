/**
 * Rows as people read them (aligned columns under a header, numbers to the right) and as
 * programs do (tab-separated, escaped as the engine's TSV is).
 */
export type Cell = string

const NUMBER = /^-?\d+(\.\d+)?(e[+-]?\d+)?$/i
const MAX_WIDTH = 60

/** A value as a table cell: strings as they are, null as NULL, the rest as JSON. */
export const cell = (value: unknown): Cell =>
  value === null || value === undefined
    ? "NULL"
    : typeof value === "string"
      ? value
      : typeof value === "object"
        ? JSON.stringify(value)
        : String(value)

const visible = (text: string) => text.replace(/[\t\n\r]/g, " ")

const clip = (text: string, width: number) =>
  text.length <= width ? text : `${text.slice(0, Math.max(0, width - 1))}…`

export interface Layout {
  readonly widths: ReadonlyArray<number>
  readonly numeric: ReadonlyArray<boolean>
}

/** Column widths and alignment from the header and a sample of rows. */
export const layoutOf = (
  header: ReadonlyArray<string>,
  rows: ReadonlyArray<ReadonlyArray<Cell>>
): Layout => ({
  widths: header.map((name, i) =>
    Math.min(MAX_WIDTH, Math.max(name.length, ...rows.map((row) => visible(row[i] ?? "").length)))
  ),
  numeric: header.map(
    (_, i) => rows.length > 0 && rows.every((row) => NUMBER.test(row[i] ?? "") || row[i] === "NULL")
  )
})

const pad = (text: string, width: number, right: boolean) => {
  const clipped = clip(visible(text), width)
  return right ? clipped.padStart(width) : clipped.padEnd(width)
}

export const headerLines = (
  header: ReadonlyArray<string>,
  layout: Layout
): ReadonlyArray<string> => [
  header
    .map((name, i) => pad(name, layout.widths[i]!, layout.numeric[i]!))
    .join("  ")
    .trimEnd(),
  layout.widths.map((w) => "─".repeat(w)).join("  ")
]

/** The layout grown to fit a row wider than the sample it came from (never past the cap). */
export const widen = (layout: Layout, row: ReadonlyArray<Cell>): Layout =>
  row.every((value, i) => visible(value).length <= (layout.widths[i] ?? MAX_WIDTH))
    ? layout
    : {
        ...layout,
        widths: layout.widths.map((w, i) =>
          Math.max(w, Math.min(MAX_WIDTH, visible(row[i] ?? "").length))
        )
      }

export const rowLine = (row: ReadonlyArray<Cell>, layout: Layout) =>
  row
    .map((value, i) => pad(value, layout.widths[i] ?? value.length, layout.numeric[i] ?? false))
    .join("  ")
    .trimEnd()

/** A whole table as text, header first. */
export const render = (
  header: ReadonlyArray<string>,
  rows: ReadonlyArray<ReadonlyArray<Cell>>
): string => {
  const layout = layoutOf(header, rows)
  return [...headerLines(header, layout), ...rows.map((row) => rowLine(row, layout))].join("\n")
}

const escapeTsv = (text: string) =>
  text.replace(/\\/g, "\\\\").replace(/\t/g, "\\t").replace(/\n/g, "\\n").replace(/\r/g, "\\r")

export const tsvLine = (row: ReadonlyArray<Cell>) => row.map(escapeTsv).join("\t")

export const bytes = (n: number) => {
  const units = ["B", "KiB", "MiB", "GiB", "TiB"]
  let value = n
  let unit = 0
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024
    unit++
  }
  return unit === 0 ? `${n} B` : `${value.toFixed(value < 10 ? 2 : 1)} ${units[unit]}`
}

// By hand for whole numbers: the first toLocaleString loads ICU's data, tens of ms at start.
export const count = (n: number) =>
  Number.isSafeInteger(n) ? String(n).replace(/\B(?=(\d{3})+$)/g, ",") : n.toLocaleString("en-US")

/** A count with its noun, singular for exactly one: "1 row", "30,000 rows". */
export const countOf = (n: number, noun: string) => `${count(n)} ${n === 1 ? noun : `${noun}s`}`
