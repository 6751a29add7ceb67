import { lazy, Suspense } from "preact/compat"
import { useEffect, useRef, useState } from "preact/hooks"
import { CancelQueryRequest } from "../../../../domain/api/QueryApi.js"
import { ApiFailure, call, failureOf, streamEndpoint } from "../api.js"
import { drafts } from "../drafts.js"
import { ErrorNote } from "../ErrorNote.js"
import { hrefOf, navigate } from "../route.js"
import type { Scope } from "../Shell.js"
import { EXPORT_FORMATS, exportResult } from "./exportResult.js"
import type { ExportFormat } from "./exportResult.js"
import { Grid } from "./Grid.js"
import { queryHistory } from "./history.js"
import { countOf, formatBytes, formatCount, pacedLines, ResultBuffer } from "./resultStream.js"
import { createSqlEditor } from "./codemirror.js"
import type { SqlEditor } from "./codemirror.js"
import { loadSchemaHints } from "./schemaHints.js"

const Chart = lazy(() => import("./Chart.js").then((m) => m.Chart))

interface Running {
  readonly queryId: string
  readonly controller: AbortController
  readonly startedAt: number
  readonly startedWall: number
  readonly cancelRequested: { value: boolean }
}

interface Finished {
  readonly rows: number
  readonly seconds: number
  readonly cancelled: boolean
  /** Failed (not cancelled): the error says so; statistics only for rows received before. */
  readonly failed: boolean
}

// The engine names a syntax error's place as `failed at position N` (1-based).
const positionOf = (message: string) => {
  const match = /position (\d+)/.exec(message)
  return match === null ? null : Number(match[1]) - 1
}

export const SqlView = ({ scope, params }: { scope: Scope; params: URLSearchParams }) => {
  const initial = useRef(params.get("sql") ?? drafts.get("sql") ?? "SELECT 1")
  // A link that names a query (a shared one, a table's "Query in SQL") shows its rows on
  // opening.
  const linked = useRef(params.has("sql"))
  const host = useRef<HTMLDivElement>(null)
  const editor = useRef<SqlEditor | null>(null)
  const [buffer, setBuffer] = useState(() => new ResultBuffer())
  const [version, setVersion] = useState(0)
  const [running, setRunning] = useState<Running | null>(null)
  const runningRef = useRef<Running | null>(null)
  const [now, setNow] = useState(Date.now())
  const [finished, setFinished] = useState<Finished | null>(null)
  const [failure, setFailure] = useState<ApiFailure | null>(null)
  const [hints, setHints] = useState<ReadonlyArray<string>>([])
  const [exportFormat, setExportFormat] = useState<ExportFormat>("CSV")
  const [exporting, setExporting] = useState<{ bytes: number; controller: AbortController } | null>(
    null
  )
  const [exportFailure, setExportFailure] = useState<ApiFailure | null>(null)
  const [chart, setChart] = useState<{ x: number; y: number; kind: "line" | "bar" } | null>(null)
  const [showHistory, setShowHistory] = useState(false)
  const scopeParams = {
    organization: scope.organization,
    cluster: scope.cluster,
    database: scope.database
  }

  // A query only just sent may not be running on the service yet: asked again until it
  // is found or its answer ends.
  const cancel = async () => {
    const current = runningRef.current
    if (current === null || current.cancelRequested.value) return
    current.cancelRequested.value = true
    for (let attempt = 0; attempt < 20 && runningRef.current === current; attempt++) {
      try {
        await call((client) =>
          client.query.cancel({
            urlParams: scopeParams,
            payload: CancelQueryRequest.make({ query_id: current.queryId })
          })
        )
        break
      } catch (error) {
        if (!(error instanceof ApiFailure) || error.code !== "not_found") break
        await new Promise((resolve) => setTimeout(resolve, 250))
      }
    }
    current.controller.abort()
  }

  const run = async () => {
    if (runningRef.current !== null || editor.current === null) return
    const sql = editor.current.text()
    if (sql.trim() === "") return
    editor.current.markError(null)
    const current: Running = {
      queryId: crypto.randomUUID(),
      controller: new AbortController(),
      startedAt: performance.now(),
      startedWall: Date.now(),
      cancelRequested: { value: false }
    }
    runningRef.current = current
    setRunning(current)
    setFailure(null)
    setFinished(null)
    setHints([])
    const result = new ResultBuffer()
    setBuffer(result)
    navigate(hrefOf({ ...scope, view: "sql" }, { database: scope.database, sql }), true)
    let frame = 0
    const redraw = () => {
      frame = 0
      setVersion(result.version)
      setNow(Date.now())
    }
    const splitter = pacedLines((line) => {
      const empty = result.rows.length === 0
      result.line(line)
      // The first rows are drawn now; the rest at most once a frame.
      if (empty && result.rows.length > 0) {
        if (frame !== 0) cancelAnimationFrame(frame)
        redraw()
        return true
      }
      if (frame === 0) frame = requestAnimationFrame(redraw)
      return false
    })
    const ticker = setInterval(() => setNow(Date.now()), 250)
    let error: string | null = null
    let cancelled = false
    try {
      await streamEndpoint("query", "query", {
        urlParams: scopeParams,
        body: { sql, format: "JSONEachRowWithProgress", query_id: current.queryId },
        signal: current.controller.signal,
        onResponse: (headers) => {
          const value = headers["x-service-hints"]
          if (value !== undefined) setHints(JSON.parse(value) as Array<string>)
        },
        onChunk: (chunk) => splitter.push(chunk)
      })
      await splitter.end()
      if (result.exception !== null)
        throw new ApiFailure("query_failed", result.exception, "", null)
    } catch (caught) {
      const f = failureOf(caught)
      cancelled = current.cancelRequested.value
      if (cancelled) error = "Cancelled."
      else {
        error = f.message
        setFailure(f)
        editor.current?.markError(positionOf(f.message))
      }
    } finally {
      splitter.stop()
      clearInterval(ticker)
      if (frame !== 0) cancelAnimationFrame(frame)
      runningRef.current = null
      setRunning(null)
      setVersion(result.version)
      setFinished({
        rows: result.rows.length,
        seconds: (performance.now() - current.startedAt) / 1000,
        cancelled,
        failed: error !== null && !cancelled
      })
      queryHistory.add({
        sql,
        database: scope.database,
        at: new Date().toISOString(),
        rows: result.rows.length,
        error
      })
    }
  }

  const runRef = useRef(run)
  runRef.current = run
  const cancelRef = useRef(cancel)
  cancelRef.current = cancel

  useEffect(() => {
    if (host.current === null) return
    const made = createSqlEditor(host.current, {
      doc: initial.current,
      label: "SQL query",
      onChange: (text) => drafts.set("sql", text),
      onRun: () => void runRef.current(),
      onCancel: () => void cancelRef.current()
    })
    editor.current = made
    made.focus()
    if (linked.current) void runRef.current()
    linked.current = false
    return () => {
      made.destroy()
      editor.current = null
    }
  }, [])

  useEffect(() => {
    let gone = false
    void loadSchemaHints(scope).then((hints) => {
      if (!gone) editor.current?.setHints(hints)
    })
    return () => {
      gone = true
    }
  }, [scope.organization, scope.cluster, scope.database])

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape" && runningRef.current !== null) void cancelRef.current()
    }
    window.addEventListener("keydown", onKey)
    return () => window.removeEventListener("keydown", onKey)
  }, [])

  const startExport = async () => {
    if (editor.current === null || exporting !== null) return
    const controller = new AbortController()
    setExportFailure(null)
    setExporting({ bytes: 0, controller })
    try {
      await exportResult(
        scope,
        editor.current.text(),
        exportFormat,
        (bytes) => setExporting({ bytes, controller }),
        controller.signal
      )
    } catch (caught) {
      if (!controller.signal.aborted) setExportFailure(failureOf(caught))
    } finally {
      setExporting(null)
    }
  }

  const progress = buffer.progress
  const elapsed = running !== null ? Math.max(0, now - running.startedWall) / 1000 : null
  return (
    <div class="sql-view">
      <div class="toolbar" role="toolbar" aria-label="Query">
        <button
          type="button"
          class="primary"
          onClick={() => void run()}
          disabled={running !== null}
          title="Ctrl+Enter"
        >
          Run
        </button>
        <button type="button" onClick={() => void cancel()} disabled={running === null} title="Esc">
          Cancel
        </button>
        <span class="spacer" />
        <label>
          Export as{" "}
          <select
            value={exportFormat}
            onChange={(e) => setExportFormat(e.currentTarget.value as ExportFormat)}
          >
            {Object.keys(EXPORT_FORMATS).map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </select>
        </label>
        {exporting === null ? (
          <button type="button" onClick={() => void startExport()}>
            Export
          </button>
        ) : (
          <button type="button" onClick={() => exporting.controller.abort()}>
            Stop export ({formatBytes(exporting.bytes)})
          </button>
        )}
        <button
          type="button"
          aria-pressed={chart !== null}
          onClick={() =>
            setChart(
              chart === null
                ? { x: 0, y: Math.min(1, buffer.columns.length - 1), kind: "line" }
                : null
            )
          }
        >
          Chart
        </button>
        <button
          type="button"
          aria-pressed={showHistory}
          onClick={() => setShowHistory(!showHistory)}
        >
          History
        </button>
      </div>
      <div class="editor-row">
        <div class="editor" ref={host} />
        {showHistory ? (
          <aside class="history" aria-label="Query history">
            <h2>History</h2>
            <ul>
              {queryHistory.list().map((entry) => (
                <li key={entry.at}>
                  <button
                    type="button"
                    class="link"
                    title={entry.sql}
                    onClick={() => {
                      editor.current?.setText(entry.sql)
                      if (entry.database !== scope.database)
                        navigate(
                          hrefOf(
                            { ...scope, view: "sql" },
                            { database: entry.database, sql: entry.sql }
                          )
                        )
                    }}
                  >
                    <code>{entry.sql.slice(0, 120)}</code>
                  </button>
                  <span class="muted small">
                    {entry.database} · {new Date(entry.at).toLocaleString()} ·{" "}
                    {entry.error ?? countOf(entry.rows ?? 0, "row")}
                  </span>
                </li>
              ))}
            </ul>
          </aside>
        ) : null}
      </div>
      <ErrorNote failure={exportFailure} />
      {running !== null ? (
        <div class="progress" role="status" aria-live="polite">
          Running · {countOf(buffer.rows.length, "row")} received
          {progress === null
            ? null
            : ` · ${countOf(progress.rowsRead, "row")}, ${formatBytes(progress.bytesRead)} read`}
          {progress !== null && progress.totalRows > 0
            ? ` of ${formatCount(progress.totalRows)}`
            : null}
          {elapsed === null ? null : ` · ${elapsed.toFixed(1)} s`}
          {progress !== null && progress.totalRows > 0 ? (
            <progress max={progress.totalRows} value={progress.rowsRead} aria-label="Rows read" />
          ) : null}
        </div>
      ) : null}
      <ErrorNote failure={failure} />
      {chart !== null && buffer.columns.length > 0 ? (
        <div class="chart-panel">
          <div class="toolbar">
            <label>
              X{" "}
              <select
                aria-label="Chart X column"
                value={chart.x}
                onChange={(e) => setChart({ ...chart, x: Number(e.currentTarget.value) })}
              >
                {buffer.columns.map((c, i) => (
                  <option key={i} value={i}>
                    {c.name}
                  </option>
                ))}
              </select>
            </label>
            <label>
              Y{" "}
              <select
                aria-label="Chart Y column"
                value={chart.y}
                onChange={(e) => setChart({ ...chart, y: Number(e.currentTarget.value) })}
              >
                {buffer.columns.map((c, i) => (
                  <option key={i} value={i}>
                    {c.name}
                  </option>
                ))}
              </select>
            </label>
            <label>
              Kind{" "}
              <select
                aria-label="Chart kind"
                value={chart.kind}
                onChange={(e) =>
                  setChart({ ...chart, kind: e.currentTarget.value === "bar" ? "bar" : "line" })
                }
              >
                <option value="line">line</option>
                <option value="bar">bar</option>
              </select>
            </label>
          </div>
          <Suspense fallback={<p class="muted">Loading chart…</p>}>
            {running === null ? (
              <Chart
                columns={buffer.columns}
                rows={buffer.rows}
                x={chart.x}
                y={chart.y}
                kind={chart.kind}
              />
            ) : null}
          </Suspense>
        </div>
      ) : null}
      {buffer.columns.length > 0 ? (
        <Grid columns={buffer.columns} rows={buffer.rows} version={version} />
      ) : null}
      <footer class="stats" aria-label="Statistics">
        {finished === null || (finished.failed && finished.rows === 0) ? null : (
          <span>
            {finished.cancelled ? "Cancelled · " : finished.failed ? "Failed after " : ""}
            {countOf(finished.rows, "row")} in {finished.seconds.toFixed(3)} s
            {progress === null
              ? null
              : ` · ${countOf(progress.rowsRead, "row")} read, ${formatBytes(progress.bytesRead)} read`}
          </span>
        )}
        {hints.map((hint) => (
          <div class="hint" key={hint}>
            {hint}
          </div>
        ))}
      </footer>
    </div>
  )
}
