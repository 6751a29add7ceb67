import { useEffect, useRef } from "preact/hooks"
import uPlot from "uplot"
import type { Column } from "./resultStream.js"

const numeric = (value: unknown): number | null => {
  if (value === null || value === undefined || value === "") return null
  const n = typeof value === "number" ? value : Number(value)
  if (Number.isFinite(n)) return n
  const time = Date.parse(String(value).replace(" ", "T"))
  return Number.isFinite(time) ? time / 1000 : null
}

const isTime = (type: string) => /^(Nullable\()?(Date|DateTime)/.test(type)

/** A line or bar chart of two columns of the result (uPlot, loaded with the chart). */
export const Chart = ({
  columns,
  rows,
  x,
  y,
  kind
}: {
  columns: ReadonlyArray<Column>
  rows: ReadonlyArray<ReadonlyArray<unknown>>
  x: number
  y: number
  kind: "line" | "bar"
}) => {
  const box = useRef<HTMLDivElement>(null)
  useEffect(() => {
    const parent = box.current
    const xColumn = columns[x]
    const yColumn = columns[y]
    if (parent === null || xColumn === undefined || yColumn === undefined) return
    const categorical = rows
      .slice(0, 100)
      .some((row) => numeric(row[x]) === null && row[x] !== null)
    const points = rows
      .slice(0, 50_000)
      .map((row, i) => [categorical ? i : numeric(row[x]), numeric(row[y])] as const)
      .filter((p): p is readonly [number, number | null] => p[0] !== null)
    if (!categorical) points.sort((a, b) => a[0] - b[0])
    const labels = categorical ? rows.map((row) => String(row[x])) : []
    const dark = matchMedia("(prefers-color-scheme: dark)").matches
    const axis = {
      stroke: dark ? "#c9d1d9" : "#333",
      grid: { stroke: dark ? "#30363d" : "#e5e5e5" }
    }
    const chart = new uPlot(
      {
        width: Math.max(300, parent.clientWidth),
        height: 320,
        scales: { x: { time: !categorical && isTime(xColumn.type) } },
        axes: [
          categorical
            ? { ...axis, values: (_u, splits) => splits.map((s) => labels[Math.round(s)] ?? "") }
            : axis,
          axis
        ],
        series: [
          { label: xColumn.name },
          kind === "bar"
            ? {
                label: yColumn.name,
                stroke: "#2f81f7",
                fill: "rgba(47,129,247,0.5)",
                width: 0,
                paths: uPlot.paths.bars!({ size: [0.8, 60] })
              }
            : { label: yColumn.name, stroke: "#2f81f7", width: 2 }
        ]
      },
      [points.map((p) => p[0]), points.map((p) => p[1])],
      parent
    )
    return () => chart.destroy()
  }, [columns, rows.length, x, y, kind])
  return (
    <div
      class="chart"
      ref={box}
      aria-label={`Chart of ${columns[y]?.name ?? ""} by ${columns[x]?.name ?? ""}`}
    />
  )
}
