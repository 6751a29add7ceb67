import { DateTime } from "effect"
import { lazy, Suspense } from "preact/compat"
import { useMemo, useState } from "preact/hooks"
import type { MetricSeries } from "../../../../domain/api/ClusterModels.js"
import { ErrorNote } from "../ErrorNote.js"
import { useApi } from "../useApi.js"

const SeriesChart = lazy(() => import("../spl/SeriesChart.js").then((m) => m.SeriesChart))

const RANGES: ReadonlyArray<readonly [string, number]> = [
  ["1h", 3600],
  ["6h", 21_600],
  ["24h", 86_400],
  ["7d", 604_800],
  ["30d", 2_592_000]
]

const GIB = 2 ** 30

/** One metric's points as aligned columns: a line per replica for replica-scoped series. */
const columnsOf = (metric: MetricSeries) => {
  const scale = metric.unit === "bytes" ? 1 / GIB : 1
  const times = [...new Set(metric.points.map((p) => Date.parse(p.time) / 1000))].sort(
    (a, b) => a - b
  )
  const at = new Map(times.map((t, i) => [t, i]))
  const lines = new Map<string, Array<number | null>>()
  for (const point of metric.points) {
    const name = point.replica ?? metric.label
    let values = lines.get(name)
    if (values === undefined) lines.set(name, (values = times.map(() => null)))
    values[at.get(Date.parse(point.time) / 1000)!] = point.value * scale
  }
  return {
    times,
    series: [...lines].map(([name, values]) => ({ name, values })),
    unit: metric.unit === "bytes" ? "GiB" : metric.unit
  }
}

const MetricChart = ({
  metric,
  span
}: {
  metric: MetricSeries
  span: readonly [number, number]
}) => {
  const columns = useMemo(() => columnsOf(metric), [metric])
  return (
    <figure class="metric" aria-label={metric.label}>
      <figcaption>
        <strong>{metric.label}</strong> <span class="muted">({columns.unit})</span>
        <div class="small muted">{metric.description}</div>
      </figcaption>
      {columns.times.length === 0 ? (
        <p class="muted">No samples in this range.</p>
      ) : (
        <>
          {columns.times.length === 1 ? (
            <p class="small muted">
              One sample so far in this range: a line is drawn once the next one is taken.
            </p>
          ) : null}
          <Suspense fallback={<p class="muted">Loading…</p>}>
            <SeriesChart
              times={columns.times}
              series={columns.series}
              label={`${metric.label} chart`}
              span={span}
            />
          </Suspense>
        </>
      )}
    </figure>
  )
}

/** The four cluster metrics over a chosen range, as charts. */
export const ClusterMetrics = ({
  organization,
  cluster
}: {
  organization: string
  cluster: string
}) => {
  const [range, setRange] = useState(3600)
  const [round, setRound] = useState(0)
  const span = useMemo(() => {
    const end = Math.round(Date.now() / 1000)
    return [end - range, end] as const
  }, [range, round])
  const metrics = useApi(
    (client) =>
      client.clusters.metricsByName({
        urlParams: {
          organization,
          cluster,
          start_time: DateTime.unsafeMake(span[0] * 1000),
          end_time: DateTime.unsafeMake(span[1] * 1000)
        }
      }),
    [organization, cluster, span]
  )
  return (
    <section class="cluster-metrics" aria-label={`Metrics of ${cluster}`}>
      <div class="toolbar">
        <h3>Metrics of {cluster}</h3>
        <span class="spacer" />
        <label>
          Range{" "}
          <select
            aria-label="Metrics range"
            value={range}
            onChange={(e) => setRange(Number(e.currentTarget.value))}
          >
            {RANGES.map(([label, seconds]) => (
              <option key={label} value={seconds}>
                last {label}
              </option>
            ))}
          </select>
        </label>
        <button type="button" onClick={() => setRound((r) => r + 1)}>
          Refresh
        </button>
      </div>
      <ErrorNote failure={metrics.failure} />
      <div class="metric-grid">
        {(metrics.value?.metrics ?? []).map((metric) => (
          <MetricChart key={metric.name} metric={metric} span={span} />
        ))}
      </div>
    </section>
  )
}
