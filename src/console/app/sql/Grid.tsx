import { useEffect, useMemo, useRef, useState } from "preact/hooks"
import { formatCell } from "./resultStream.js"
import type { Column } from "./resultStream.js"

const ROW_HEIGHT = 26
const OVERSCAN = 10

// A character of the grid's 14 px font, digits included (tabular figures are the widest).
const CHARACTER_PX = 8.6

const widthOf = (column: Column, rows: ReadonlyArray<ReadonlyArray<unknown>>, index: number) => {
  let longest = Math.max(column.name.length, column.type.length)
  for (let i = 0; i < Math.min(rows.length, 50); i++)
    longest = Math.max(longest, formatCell(rows[i]![index]).length)
  return Math.min(420, Math.max(80, Math.ceil(longest * CHARACTER_PX) + 24))
}

// Numbers line up by their last digit, as in any table of figures.
const NUMERIC_TYPE = /^(?:Nullable\(|LowCardinality\()*(?:U?Int\d+|Float\d+|BFloat16|Decimal)/
const cellClass = (column: Column) =>
  NUMERIC_TYPE.test(column.type) ? "grid-cell numeric" : "grid-cell"

/**
 * The height of a box holding a grid of `rows` rows: its header, the rows and room for a
 * horizontal scroll bar, up to `most` (then it scrolls), so a few rows leave no empty box.
 */
export const gridHeight = (rows: number, most: number) =>
  Math.min(most, 40 + 2 + Math.max(1, rows) * ROW_HEIGHT + 18)

/**
 * The rows as a table that draws only what is in view, so 100,000 rows scroll as 50
 * do. Every value is a text node.
 */
export const Grid = ({
  columns,
  rows,
  version
}: {
  columns: ReadonlyArray<Column>
  rows: ReadonlyArray<ReadonlyArray<unknown>>
  version: number
}) => {
  const [scrollTop, setScrollTop] = useState(0)
  const [height, setHeight] = useState(400)
  const box = useRef<HTMLDivElement>(null)
  useEffect(() => {
    const element = box.current
    if (element === null) return
    const observer = new ResizeObserver(() => setHeight(element.clientHeight))
    observer.observe(element)
    return () => observer.disconnect()
  }, [])
  // Widths from the first rows, fixed once they arrived, so columns do not jump.
  const widths = useMemo(
    () => columns.map((column, i) => widthOf(column, rows, i)),
    [columns, rows.length > 0 ? Math.min(rows.length, 50) : 0]
  )
  const total = widths.reduce((a, b) => a + b, 48)
  const first = Math.max(0, Math.floor(scrollTop / ROW_HEIGHT) - OVERSCAN)
  const last = Math.min(rows.length, Math.ceil((scrollTop + height) / ROW_HEIGHT) + OVERSCAN)
  const visible = []
  for (let i = first; i < last; i++) {
    const row = rows[i]!
    visible.push(
      <div
        class="grid-row"
        role="row"
        aria-rowindex={i + 2}
        key={i}
        style={{ top: `${i * ROW_HEIGHT}px` }}
      >
        <div class="grid-cell grid-index" role="rowheader">
          {i + 1}
        </div>
        {columns.map((column, c) => {
          const value = row[c]
          return (
            <div
              role="gridcell"
              class={
                value === null || value === undefined
                  ? `${cellClass(column)} null`
                  : cellClass(column)
              }
              style={{ width: `${widths[c]}px` }}
              key={c}
              title={formatCell(value).slice(0, 2000)}
            >
              {formatCell(value).slice(0, 500)}
            </div>
          )
        })}
      </div>
    )
  }
  return (
    <div
      class="grid"
      role="grid"
      aria-rowcount={rows.length + 1}
      aria-colcount={columns.length}
      data-version={version}
      tabIndex={0}
      ref={box}
      onScroll={(e) => {
        setScrollTop(e.currentTarget.scrollTop)
        setHeight(e.currentTarget.clientHeight)
      }}
    >
      <div class="grid-head" role="row" aria-rowindex={1} style={{ width: `${total}px` }}>
        <div class="grid-cell grid-index" role="columnheader">
          #
        </div>
        {columns.map((column, c) => (
          <div
            class={cellClass(column)}
            role="columnheader"
            style={{ width: `${widths[c]}px` }}
            key={c}
          >
            <span class="col-name">{column.name}</span>
            <span class="col-type">{column.type}</span>
          </div>
        ))}
      </div>
      <div
        class="grid-body"
        style={{ height: `${rows.length * ROW_HEIGHT}px`, width: `${total}px` }}
      >
        {visible}
      </div>
    </div>
  )
}
