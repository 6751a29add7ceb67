import { lazy, Suspense } from "preact/compat"
import { useEffect, useRef, useState } from "preact/hooks"
import { CancelQueryRequest } from "../../../../domain/api/QueryApi.js"
import { SplSearchRequest } from "../../../../domain/api/SplApi.js"
import type { SplCapabilities, SplSearchResult } from "../../../../domain/api/SplApi.js"
import type { SavedSearch } from "../../../../domain/api/SavedSearchesApi.js"
import { ApiFailure, call, failureOf } from "../api.js"
import { drafts } from "../drafts.js"
import type { CodeEditor } from "../editor.js"
import { AppErrorNote } from "../ErrorNote.js"
import { hrefOf, navigate } from "../route.js"
import type { Scope } from "../Shell.js"
import { Grid, gridHeight } from "../sql/Grid.js"
import { countOf } from "../sql/resultStream.js"
import { Events, termsOf } from "./Events.js"
import { FieldSidebar } from "./FieldSidebar.js"
import { Funnel } from "./Funnel.js"
import { SavedSearches } from "./SavedSearches.js"
import { TimePicker } from "./TimePicker.js"
import { Timeline } from "./Timeline.js"

const SeriesChart = lazy(() => import("./SeriesChart.js").then((m) => m.SeriesChart))

const epochOf = (time: unknown) => Date.parse(`${String(time).replace(" ", "T")}Z`) / 1000

/** `field="value"` (or `NOT …`) added to the search's first stage. */
export const withFilter = (spl: string, field: string, value: string, exclude: boolean) => {
  const term = `${exclude ? "NOT " : ""}${field}="${value.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`
  const pipe = spl.indexOf("|")
  const head = (pipe === -1 ? spl : spl.slice(0, pipe)).trimEnd()
  const rest = pipe === -1 ? "" : ` ${spl.slice(pipe)}`
  return `${head === "" ? "" : `${head} `}${term}${rest}`
}

const completionsOf = (capabilities: SplCapabilities) => [
  ...capabilities.commands.map((c) => ({ label: c.name, type: "keyword", detail: "command" })),
  ...capabilities.functions.map((f) => ({ label: f, type: "function", apply: `${f}(` }))
]

const keyOf = (event: Record<string, unknown>) =>
  `${String(event._time)}\u0000${String(event._raw)}`

export const SplView = ({ scope, params }: { scope: Scope; params: URLSearchParams }) => {
  const host = useRef<HTMLDivElement>(null)
  const editor = useRef<CodeEditor | null>(null)
  const capabilities = useRef<SplCapabilities | null>(null)
  const initial = useRef(params.get("spl") ?? drafts.get("spl") ?? "*")
  // A link that names a search shows its results on opening, as a shared search should.
  const linked = useRef(params.has("spl"))
  const [earliest, setEarliest] = useState(params.get("earliest") ?? "-24h")
  const [latest, setLatest] = useState(params.get("latest") ?? "now")
  const [result, setResult] = useState<SplSearchResult | null>(null)
  const [events, setEvents] = useState<ReadonlyArray<Record<string, unknown>>>([])
  const [failure, setFailure] = useState<ApiFailure | null>(null)
  const [running, setRunning] = useState<{ queryId: string; controller: AbortController } | null>(
    null
  )
  const [explained, setExplained] = useState<ReadonlyArray<string> | null>(null)
  const [opened, setOpened] = useState<SavedSearch | null>(null)
  const [live, setLive] = useState(false)
  const [paused, setPaused] = useState(false)
  const [spl, setSpl] = useState(initial.current)
  const urlParams = {
    organization: scope.organization,
    cluster: scope.cluster,
    database: scope.database
  }
  const runningRef = useRef<{ queryId: string; controller: AbortController } | null>(null)
  const cancelRef = useRef<() => Promise<void>>(async () => undefined)
  const runRef = useRef<(range?: { earliest: string; latest: string }) => Promise<void>>(
    async () => undefined
  )

  // A new search replaces one still running (a value clicked, a window dragged meanwhile).
  const run = async (range = { earliest, latest }) => {
    const text = editor.current?.text() ?? spl
    if (runningRef.current !== null) void cancelRef.current()
    editor.current?.markError(null)
    const current = { queryId: crypto.randomUUID(), controller: new AbortController() }
    runningRef.current = current
    setRunning(current)
    setFailure(null)
    setExplained(null)
    navigate(
      hrefOf(
        { ...scope, view: "search" },
        { database: scope.database, spl: text, earliest: range.earliest, latest: range.latest }
      ),
      true
    )
    try {
      const answer = await call(
        (client) =>
          client.spl.search({
            urlParams,
            payload: SplSearchRequest.make({
              spl: text,
              earliest: range.earliest,
              latest: range.latest,
              include_field_statistics: true,
              query_id: current.queryId
            })
          }),
        current.controller.signal
      )
      if (runningRef.current !== current) return
      setResult(answer)
      setEvents(answer.raw_events)
    } catch (error) {
      const f = failureOf(error)
      if (runningRef.current === current && f.code !== "cancelled") {
        setFailure(f)
        const position = (error as { position?: unknown }).position
        if (typeof position === "number") editor.current?.markError(position)
      }
    } finally {
      if (runningRef.current === current) {
        runningRef.current = null
        setRunning(null)
      }
    }
  }
  runRef.current = run

  const cancel = async () => {
    const running = runningRef.current
    if (running === null) return
    runningRef.current = null
    setRunning(null)
    try {
      await call((client) =>
        client.query.cancel({
          urlParams,
          payload: CancelQueryRequest.make({ query_id: running.queryId })
        })
      )
    } catch {
      // Ended meanwhile.
    }
    running.controller.abort()
  }
  cancelRef.current = cancel

  const explain = async () => {
    setFailure(null)
    try {
      const answer = await call((client) =>
        client.spl.search({
          urlParams,
          payload: SplSearchRequest.make({
            spl: editor.current?.text() ?? spl,
            earliest,
            latest,
            explain: true
          })
        })
      )
      setExplained(answer.explain?.stages.map((stage) => stage.sql) ?? [])
      if (result === null) setResult(answer)
    } catch (error) {
      setFailure(failureOf(error))
    }
  }

  useEffect(() => {
    let made: CodeEditor | null = null
    let gone = false
    void Promise.all([
      import("../editor.js"),
      import("./splLanguage.js"),
      call((client) => client.splCapabilities.capabilities()).catch(() => null)
    ]).then(([{ createEditor }, { splLanguage }, known]) => {
      if (gone || host.current === null) return
      const commands = new Set(known?.commands.map((c) => c.name) ?? [])
      made = createEditor(host.current, {
        doc: initial.current,
        label: "SPL search",
        minHeight: 58,
        placeholder: "status>=500 | stats count by host (Ctrl+Enter runs)",
        language: splLanguage(commands),
        onChange: (text) => {
          drafts.set("spl", text)
          setSpl(text)
        },
        onRun: () => void runRef.current(),
        onCancel: () => void cancelRef.current()
      })
      capabilities.current = known
      if (known !== null)
        made.setCompletions([
          ...completionsOf(known),
          ...known.builtin_fields.map((f) => ({ label: f, type: "property" }))
        ])
      editor.current = made
      made.focus()
      if (linked.current) void runRef.current()
      linked.current = false
    })
    return () => {
      gone = true
      made?.destroy()
      editor.current = null
    }
  }, [])

  // Field names of the table complete too, once a search brought them: with the
  // capabilities read when the editor was made, not asked again after each search.
  useEffect(() => {
    const fields = result?.field_statistics
    const known = capabilities.current
    if (fields === undefined || editor.current === null || known === null) return
    editor.current.setCompletions([
      ...completionsOf(known),
      ...fields.map((f) => ({ label: f.field, type: "property", detail: f.type }))
    ])
  }, [result])

  // Live tail: the last five minutes asked again every two seconds, new events on top,
  // held while the user has scrolled down the list.
  const list = useRef<HTMLDivElement>(null)
  useEffect(() => {
    if (!live) return
    let stopped = false
    const tick = async () => {
      if (stopped) return
      const box = list.current
      const scrolledBack = box !== null && box.scrollTop > 0
      setPaused(scrolledBack)
      if (!scrolledBack)
        try {
          const answer = await call((client) =>
            client.spl.search({
              urlParams,
              payload: SplSearchRequest.make({
                spl: editor.current?.text() ?? spl,
                earliest: "-5m",
                latest: "now"
              })
            })
          )
          if (!stopped)
            setEvents((previous) => {
              const seen = new Set(previous.map(keyOf))
              const fresh = answer.raw_events.filter((event) => !seen.has(keyOf(event)))
              return fresh.length === 0 ? previous : [...fresh, ...previous].slice(0, 2000)
            })
        } catch {
          // The next tick tries again; the banner tells of a lost connection.
        }
      if (!stopped) timer = setTimeout(() => void tick(), 2000)
    }
    let timer = setTimeout(() => void tick(), 0)
    return () => {
      stopped = true
      clearTimeout(timer)
    }
  }, [live, scope.organization, scope.cluster, scope.database])

  const addFilter = (field: string, value: string, exclude: boolean) => {
    const next = withFilter(editor.current?.text() ?? spl, field, value, exclude)
    editor.current?.setText(next)
    void runRef.current()
  }

  const timechart =
    result !== null && result.result_kind === "statistics" && result.meta[0]?.name === "_time"
  const columns = result?.meta ?? []
  return (
    <div class="spl-view">
      <div class="toolbar" role="toolbar" aria-label="Search">
        <button
          type="button"
          class="primary"
          onClick={() => void run()}
          disabled={running !== null}
        >
          Search
        </button>
        <button type="button" onClick={() => void cancel()} disabled={running === null}>
          Cancel
        </button>
        <TimePicker
          earliest={earliest}
          latest={latest}
          onChange={(e, l) => {
            setEarliest(e)
            setLatest(l)
          }}
        />
        <button type="button" onClick={() => void explain()}>
          Explain
        </button>
        <label class="check">
          <input
            type="checkbox"
            checked={live}
            onChange={(e) => setLive(e.currentTarget.checked)}
          />{" "}
          Live tail
        </label>
        {live && paused ? <span class="muted small">paused while you scroll back</span> : null}
      </div>
      <div class="editor spl-editor" ref={host} />
      <AppErrorNote failure={failure} scope={scope} />
      <div class="spl-body">
        <div class="spl-main">
          {result === null ? null : (
            <>
              <Timeline
                buckets={result.timeline}
                onZoom={(from, to) => {
                  setEarliest(String(from))
                  setLatest(String(to))
                  void run({ earliest: String(from), latest: String(to) })
                }}
              />
              <Funnel stages={result.stages} explained={explained} />
              <p class="muted small" aria-label="Search statistics">
                {countOf(result.rows, result.result_kind === "events" ? "event" : "row")}
                {result.truncated ? " (the first 10,000)" : ""} ·{" "}
                {result.statistics.elapsed.toFixed(3)} s ·{" "}
                {countOf(result.statistics.rows_read, "row")} read
              </p>
              {timechart ? (
                <Suspense fallback={null}>
                  <SeriesChart
                    label="Timechart"
                    times={result.data.map((row) => epochOf(row._time))}
                    series={columns.slice(1).map((c) => ({
                      name: c.name,
                      values: result.data.map((row) =>
                        row[c.name] === null ? null : Number(row[c.name])
                      )
                    }))}
                  />
                </Suspense>
              ) : null}
              {result.result_kind === "events" ? (
                <div class="events-box" ref={list}>
                  <Events events={events} terms={termsOf(editor.current?.text() ?? spl)} />
                </div>
              ) : (
                <div
                  class="stats-grid"
                  style={{ height: `${gridHeight(result.data.length, 400)}px` }}
                >
                  <Grid
                    columns={columns}
                    rows={result.data.map((row) => columns.map((c) => row[c.name]))}
                    version={result.rows}
                  />
                </div>
              )}
            </>
          )}
        </div>
        <div class="spl-side">
          {result?.field_statistics === undefined ? null : (
            <FieldSidebar fields={result.field_statistics} onValue={addFilter} />
          )}
          <SavedSearches
            scope={scope}
            current={{ spl: editor.current?.text() ?? spl, earliest, latest }}
            opened={opened}
            onOpen={(search) => {
              setOpened(search)
              if (search === null) return
              editor.current?.setText(search.spl)
              setEarliest(search.earliest ?? "-24h")
              setLatest(search.latest ?? "now")
            }}
          />
        </div>
      </div>
    </div>
  )
}
