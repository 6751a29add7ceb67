import { lazy, Suspense } from "preact/compat"
import { useEffect, useRef, useState } from "preact/hooks"
import { ApiFailure, call, failureOf } from "../api.js"
import { drafts } from "../drafts.js"
import type { CodeEditor } from "../editor.js"
import { AppErrorNote } from "../ErrorNote.js"
import { hrefOf, navigate } from "../route.js"
import type { Scope } from "../Shell.js"
import { countOf, formatCell } from "../sql/resultStream.js"

const SeriesChart = lazy(() => import("../spl/SeriesChart.js").then((m) => m.SeriesChart))

const RANGES: ReadonlyArray<readonly [string, number]> = [
  ["5m", 300],
  ["15m", 900],
  ["1h", 3600],
  ["6h", 21_600],
  ["24h", 86_400],
  ["7d", 604_800]
]

interface Series {
  readonly metric: Record<string, string>
  readonly value?: readonly [number, string]
  readonly values?: ReadonlyArray<readonly [number, string]>
}

interface Answer {
  readonly resultType: string
  readonly result: ReadonlyArray<Series> | readonly [number, string]
  readonly explain?: ReadonlyArray<{ node: string; sql: string }>
  /** The range a range query covered (this view's own note, not the API's). */
  readonly range?: string
}

const seriesName = (metric: Record<string, string>) => {
  const { __name__: name = "", ...labels } = metric
  const inner = Object.entries(labels)
    .map(([k, v]) => `${k}="${v}"`)
    .join(", ")
  return `${name}{${inner}}`
}

/** PromQL over the metrics-app: instant results as a table, ranges as lines, the selectors' SQL. */
export const MetricsView = ({ scope, params }: { scope: Scope; params: URLSearchParams }) => {
  const host = useRef<HTMLDivElement>(null)
  const chartBox = useRef<HTMLDivElement>(null)
  const editor = useRef<CodeEditor | null>(null)
  const initial = useRef(params.get("promql") ?? drafts.get("promql") ?? "")
  // A link that names a query shows its answer on opening, as a shared graph should.
  const linked = useRef((params.get("promql") ?? "") !== "")
  const [mode, setMode] = useState<"range" | "instant">(
    params.get("mode") === "instant" ? "instant" : "range"
  )
  const [range, setRange] = useState(params.get("range") ?? "1h")
  const [answer, setAnswer] = useState<Answer | null>(null)
  const [failure, setFailure] = useState<ApiFailure | null>(null)
  // The names the editor completes are asked for on opening: if the app is missing, the
  // view says so then, not at the first run.
  const [missingApp, setMissingApp] = useState<ApiFailure | null>(null)
  const [busy, setBusy] = useState(false)
  const [explain, setExplain] = useState(false)
  const urlParams = {
    organization: scope.organization,
    cluster: scope.cluster,
    database: scope.database
  }
  const run = async () => {
    const query = editor.current?.text() ?? ""
    if (query.trim() === "") return
    setBusy(true)
    setFailure(null)
    navigate(
      hrefOf(
        { ...scope, view: "metrics" },
        { database: scope.database, promql: query, mode, range }
      ),
      true
    )
    const end = Math.floor(Date.now() / 1000)
    const seconds = RANGES.find(([name]) => name === range)?.[1] ?? 3600
    // About one point per two pixels of the chart.
    const width = chartBox.current?.clientWidth ?? 1000
    const step = Math.max(1, Math.ceil(seconds / Math.max(100, width / 2)))
    try {
      const reply = await call((client) =>
        mode === "instant"
          ? client.metricsCompat.query({
              urlParams: {
                ...urlParams,
                query,
                time: String(end),
                ...(explain ? { explain: "true" } : {})
              }
            })
          : client.metricsCompat.queryRange({
              urlParams: {
                ...urlParams,
                query,
                start: String(end - seconds),
                end: String(end),
                step: String(step),
                ...(explain ? { explain: "true" } : {})
              }
            })
      )
      if (reply.status === "error")
        throw new ApiFailure(
          reply.errorType ?? "bad_data",
          reply.error ?? "The query failed.",
          "",
          null
        )
      setAnswer({ ...(reply.data as Answer), range })
    } catch (error) {
      setFailure(failureOf(error))
    } finally {
      setBusy(false)
    }
  }
  const runRef = useRef(run)
  runRef.current = run
  useEffect(() => {
    let made: CodeEditor | null = null
    let gone = false
    setMissingApp(null)
    void Promise.all([
      import("./promqlEditor.js"),
      call((client) =>
        client.metricsCompat.labelValues({ path: { name: "__name__" }, urlParams })
      ).catch(() => null),
      call((client) => client.metricsCompat.labels({ urlParams })).catch((error: unknown) => {
        const lookup = failureOf(error)
        if (lookup.status === 404 && !gone) setMissingApp(lookup)
        return null
      })
    ]).then(([{ createPromqlEditor, FUNCTIONS }, names, labels]) => {
      if (gone || host.current === null) return
      const known = new Map<string, Promise<ReadonlyArray<string>>>()
      made = createPromqlEditor(host.current, {
        valuesOf: (label, metric) => {
          const key = `${metric ?? ""}\u0000${label}`
          let values = known.get(key)
          if (values === undefined) {
            values = call((client) =>
              client.metricsCompat.labelValues({
                path: { name: label },
                urlParams: {
                  ...urlParams,
                  ...(metric === undefined ? {} : { "match[]": [metric] })
                }
              })
            ).then(
              (reply) => (Array.isArray(reply.data) ? reply.data.map(String) : []),
              () => []
            )
            known.set(key, values)
          }
          return values
        },
        doc: initial.current,
        onChange: (text) => drafts.set("promql", text),
        onRun: () => void runRef.current(),
        onCancel: () => undefined
      })
      const list = (reply: { data?: unknown } | null) =>
        Array.isArray(reply?.data) ? reply.data.map(String) : []
      made.setCompletions([
        ...list(names).map((name) => ({ label: name, type: "variable", detail: "metric" })),
        ...list(labels).map((name) => ({ label: name, type: "property", detail: "label" })),
        ...FUNCTIONS.map((name) => ({ label: name, type: "function", apply: `${name}(` }))
      ])
      editor.current = made
      made.focus()
      if (linked.current && labels !== null) void runRef.current()
      linked.current = false
    })
    return () => {
      gone = true
      made?.destroy()
      editor.current = null
    }
  }, [scope.organization, scope.cluster, scope.database])

  const series =
    answer !== null &&
    Array.isArray(answer.result) &&
    answer.resultType !== "scalar" &&
    answer.resultType !== "string"
      ? (answer.result as ReadonlyArray<Series>)
      : []
  const times = [...new Set(series.flatMap((s) => (s.values ?? []).map(([t]) => t)))].sort(
    (a, b) => a - b
  )
  return (
    <div class="page metrics-view">
      <div class="toolbar" role="toolbar" aria-label="PromQL">
        <button type="button" class="primary" disabled={busy} onClick={() => void run()}>
          Run
        </button>
        <label>
          Kind{" "}
          <select
            aria-label="Query kind"
            value={mode}
            onChange={(e) => {
              setAnswer(null)
              setMode(e.currentTarget.value === "instant" ? "instant" : "range")
            }}
          >
            <option value="range">range (graph)</option>
            <option value="instant">instant (table)</option>
          </select>
        </label>
        <label>
          Range{" "}
          <select
            aria-label="Range"
            value={range}
            onChange={(e) => setRange(e.currentTarget.value)}
          >
            {RANGES.map(([name]) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </select>
        </label>
        <label class="check">
          <input
            type="checkbox"
            checked={explain}
            onChange={(e) => setExplain(e.currentTarget.checked)}
          />{" "}
          Explain
        </label>
      </div>
      <div class="editor spl-editor" ref={host} />
      <AppErrorNote failure={failure ?? missingApp} scope={scope} />
      <div ref={chartBox}>
        {answer === null ? null : answer.resultType !== "scalar" &&
          answer.resultType !== "string" &&
          series.length === 0 ? (
          <p class="muted" role="status">
            No series match this query
            {answer.resultType === "matrix" ? ` in the last ${answer.range}` : " now"}.
          </p>
        ) : answer.resultType === "matrix" && mode === "range" ? (
          <Suspense fallback={null}>
            <SeriesChart
              label="PromQL range"
              times={times}
              series={series.map((s) => {
                const at = new Map((s.values ?? []).map(([t, v]) => [t, Number(v)]))
                return { name: seriesName(s.metric), values: times.map((t) => at.get(t) ?? null) }
              })}
            />
          </Suspense>
        ) : answer.resultType === "scalar" || answer.resultType === "string" ? (
          <p class="big">{formatCell((answer.result as readonly [number, string])[1])}</p>
        ) : (
          <table class="list" aria-label="Instant result">
            <thead>
              <tr>
                <th>Series</th>
                <th class="num">Value</th>
              </tr>
            </thead>
            <tbody>
              {series.map((s, i) => (
                <tr key={i}>
                  <td>
                    <code>{seriesName(s.metric)}</code>
                  </td>
                  <td class="num">{s.value?.[1] ?? countOf(s.values?.length ?? 0, "sample")}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </div>
      {answer?.explain === undefined ? null : (
        <section aria-label="Explain">
          <h2>Selectors' SQL</h2>
          {answer.explain.map((entry, i) => (
            <div key={i}>
              <code>{entry.node}</code>
              <pre class="sql">{entry.sql}</pre>
            </div>
          ))}
        </section>
      )}
    </div>
  )
}
