import { useEffect, useRef } from "preact/hooks"
import uPlot from "uplot"

const COLORS = [
  "#2f81f7",
  "#e5534b",
  "#57ab5a",
  "#c69026",
  "#986ee2",
  "#39c5cf",
  "#e275ad",
  "#768390"
]

/** Time series as lines, one per column after the first (time), with a legend and hover values. */
export const SeriesChart = ({
  times,
  series,
  label,
  span
}: {
  times: ReadonlyArray<number>
  series: ReadonlyArray<{ name: string; values: ReadonlyArray<number | null> }>
  label: string
  /** The time axis's bounds (epoch seconds) when it shows a chosen range, not the data's. */
  span?: readonly [number, number]
}) => {
  const box = useRef<HTMLDivElement>(null)
  useEffect(() => {
    const parent = box.current
    if (parent === null || times.length === 0) return
    const dark = matchMedia("(prefers-color-scheme: dark)").matches
    const axis = {
      stroke: dark ? "#c9d1d9" : "#333",
      grid: { stroke: dark ? "#30363d" : "#e5e5e5" }
    }
    const chart = new uPlot(
      {
        width: Math.max(300, parent.clientWidth),
        height: 280,
        axes: [axis, axis],
        ...(span === undefined ? {} : { scales: { x: { time: true, range: () => [...span] } } }),
        series: [
          {},
          ...series.map((s, i) => ({ label: s.name, stroke: COLORS[i % COLORS.length]!, width: 2 }))
        ]
      },
      [[...times], ...series.map((s) => [...s.values])],
      parent
    )
    return () => chart.destroy()
  }, [times, series, span?.[0], span?.[1]])
  return <div class="chart" ref={box} role="img" aria-label={label} />
}
