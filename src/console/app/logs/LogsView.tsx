import { useEffect, useState } from "preact/hooks"
import { DateTime, Either, ParseResult, Schema } from "effect"
import type { LogEntry } from "../../../../domain/api/LogsApi.js"
import { StatusCodes } from "../../../../domain/api/LogsApi.js"
import { ApiFailure, call } from "../api.js"
import { ErrorNote } from "../ErrorNote.js"
import type { Scope } from "../Shell.js"
import { Time } from "../time.js"

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const
const SOURCES = ["ui", "cli", "api"] as const
const LEVELS = ["success", "warning", "error"] as const

interface Filters {
  start: string
  end: string
  methods: ReadonlyArray<string>
  statuses: string
  sources: ReadonlyArray<(typeof SOURCES)[number]>
  levels: ReadonlyArray<(typeof LEVELS)[number]>
  host: string
  paths: string
  minMs: string
  maxMs: string
  databases: string
  search: string
}

const EMPTY: Filters = {
  start: "",
  end: "",
  methods: [],
  statuses: "",
  sources: [],
  levels: [],
  host: "",
  paths: "",
  minMs: "",
  maxMs: "",
  databases: "",
  search: ""
}

const list = (text: string) =>
  text
    .split(",")
    .map((part) => part.trim())
    .filter((part) => part !== "")

const toggle = <A,>(values: ReadonlyArray<A>, value: A) =>
  values.includes(value) ? values.filter((v) => v !== value) : [...values, value]

/** The Statuses field as codes (`404, 5xx`), or what is wrong with it. */
const statusesOf = (text: string) =>
  Either.mapLeft(Schema.decodeUnknownEither(StatusCodes)(text), (error) => {
    const issue = ParseResult.ArrayFormatter.formatErrorSync(error)[0]
    return new ApiFailure("bad_request", `Statuses: ${issue?.message ?? error.message}.`, "", null)
  })

const paramsOf = (
  scope: Scope,
  filters: Filters,
  statuses: ReadonlyArray<number>,
  offset: number
) => ({
  organization: scope.organization,
  cluster: scope.cluster,
  database: scope.database,
  limit: 50,
  offset,
  ...(filters.start === "" ? {} : { start_time: DateTime.unsafeMake(new Date(filters.start)) }),
  ...(filters.end === "" ? {} : { end_time: DateTime.unsafeMake(new Date(filters.end)) }),
  ...(filters.methods.length === 0 ? {} : { methods: filters.methods }),
  ...(statuses.length === 0 ? {} : { status_codes: statuses }),
  ...(filters.sources.length === 0 ? {} : { sources: filters.sources }),
  ...(filters.levels.length === 0 ? {} : { levels: filters.levels }),
  ...(filters.host === "" ? {} : { host: filters.host }),
  ...(list(filters.paths).length === 0 ? {} : { paths: list(filters.paths) }),
  ...(filters.minMs === "" ? {} : { min_duration_ms: Number(filters.minMs) }),
  ...(filters.maxMs === "" ? {} : { max_duration_ms: Number(filters.maxMs) }),
  ...(list(filters.databases).length === 0 ? {} : { log_databases: list(filters.databases) }),
  ...(filters.search === "" ? {} : { search: filters.search })
})

const Checks = <A extends string>({
  legend,
  options,
  chosen,
  onChange
}: {
  legend: string
  options: ReadonlyArray<A>
  chosen: ReadonlyArray<A>
  onChange: (next: ReadonlyArray<A>) => void
}) => (
  <fieldset class="checks">
    <legend>{legend}</legend>
    {options.map((option) => (
      <label key={option} class="check">
        <input
          type="checkbox"
          checked={chosen.includes(option)}
          onChange={() => onChange(toggle(chosen, option))}
        />{" "}
        {option}
      </label>
    ))}
  </fieldset>
)

/** The service's request log: every filter, pages by `next_offset`, an entry's every field, follow mode. */
export const LogsView = ({ scope }: { scope: Scope }) => {
  const [draft, setDraft] = useState<Filters>(EMPTY)
  const [applied, setApplied] = useState<Filters>(EMPTY)
  const [offset, setOffset] = useState(0)
  const [page, setPage] = useState<{ logs: ReadonlyArray<LogEntry>; next: number | null } | null>(
    null
  )
  const [failure, setFailure] = useState<ApiFailure | null>(null)
  const [chosen, setChosen] = useState<LogEntry | null>(null)
  const [follow, setFollow] = useState(false)
  const [round, setRound] = useState(0)
  useEffect(() => {
    const statuses =
      list(applied.statuses).length === 0 ? Either.right([]) : statusesOf(applied.statuses)
    if (Either.isLeft(statuses)) {
      setFailure(statuses.left)
      return
    }
    const controller = new AbortController()
    call(
      (client) => client.logs.list({ urlParams: paramsOf(scope, applied, statuses.right, offset) }),
      controller.signal
    ).then(
      (answer) => {
        setFailure(null)
        setPage({ logs: answer.logs, next: answer.next_offset })
      },
      (error: unknown) => {
        if (!controller.signal.aborted)
          setFailure(
            error instanceof ApiFailure
              ? error
              : new ApiFailure("bad_request", String(error), "", null)
          )
      }
    )
    return () => controller.abort()
  }, [scope.organization, scope.cluster, scope.database, applied, offset, round])
  useEffect(() => {
    if (!follow) return
    setOffset(0)
    const timer = setInterval(() => setRound((r) => r + 1), 3000)
    return () => clearInterval(timer)
  }, [follow])
  const set = (patch: Partial<Filters>) => setDraft({ ...draft, ...patch })
  return (
    <div class="page logs-view">
      <form
        class="filters"
        aria-label="Log filters"
        onSubmit={(e) => {
          e.preventDefault()
          setOffset(0)
          setApplied(draft)
        }}
      >
        <label>
          From
          <input
            type="datetime-local"
            value={draft.start}
            onInput={(e) => set({ start: e.currentTarget.value })}
          />
        </label>
        <label>
          To
          <input
            type="datetime-local"
            value={draft.end}
            onInput={(e) => set({ end: e.currentTarget.value })}
          />
        </label>
        <Checks
          legend="Methods"
          options={METHODS}
          chosen={draft.methods as ReadonlyArray<(typeof METHODS)[number]>}
          onChange={(methods) => set({ methods })}
        />
        <Checks
          legend="Sources"
          options={SOURCES}
          chosen={draft.sources}
          onChange={(sources) => set({ sources })}
        />
        <Checks
          legend="Levels"
          options={LEVELS}
          chosen={draft.levels}
          onChange={(levels) => set({ levels })}
        />
        <label>
          Statuses
          <input
            placeholder="404, 5xx"
            value={draft.statuses}
            onInput={(e) => set({ statuses: e.currentTarget.value })}
          />
        </label>
        <label>
          Host
          <input value={draft.host} onInput={(e) => set({ host: e.currentTarget.value })} />
        </label>
        <label>
          Paths
          <input
            placeholder="/v1/query, /v1/tables/*"
            value={draft.paths}
            onInput={(e) => set({ paths: e.currentTarget.value })}
          />
        </label>
        <label>
          Min ms
          <input
            type="number"
            min="0"
            value={draft.minMs}
            onInput={(e) => set({ minMs: e.currentTarget.value })}
          />
        </label>
        <label>
          Max ms
          <input
            type="number"
            min="0"
            value={draft.maxMs}
            onInput={(e) => set({ maxMs: e.currentTarget.value })}
          />
        </label>
        <label>
          Databases
          <input
            value={draft.databases}
            onInput={(e) => set({ databases: e.currentTarget.value })}
          />
        </label>
        <label>
          Search
          <input
            type="search"
            placeholder="status:500 type:select"
            value={draft.search}
            onInput={(e) => set({ search: e.currentTarget.value })}
          />
        </label>
        <button type="submit" class="primary">
          Apply
        </button>
        <label class="check">
          <input
            type="checkbox"
            checked={follow}
            onChange={(e) => setFollow(e.currentTarget.checked)}
          />{" "}
          Follow
        </label>
      </form>
      <ErrorNote failure={failure} />
      <div class="logs-split">
        <table class="list" aria-label="Requests">
          <thead>
            <tr>
              <th>Time</th>
              <th>Method</th>
              <th>Path</th>
              <th class="num">Status</th>
              <th class="num">ms</th>
              <th>Source</th>
            </tr>
          </thead>
          <tbody>
            {(page?.logs ?? []).map((entry) => (
              <tr key={entry.id} aria-selected={chosen?.id === entry.id}>
                <td class="small muted">
                  <Time value={entry.created_at} milliseconds />
                </td>
                <td>{entry.method}</td>
                <td>
                  <button type="button" class="link" onClick={() => setChosen(entry)}>
                    {entry.path}
                  </button>
                </td>
                <td class={`num level-${entry.level}`}>{entry.status_code}</td>
                <td class="num">{entry.duration_ms}</td>
                <td>{entry.source}</td>
              </tr>
            ))}
          </tbody>
        </table>
        {chosen === null ? null : (
          <aside class="drawer" aria-label="Request details">
            <div class="toolbar">
              <h2>Request</h2>
              <span class="spacer" />
              <button type="button" onClick={() => setChosen(null)}>
                Close
              </button>
            </div>
            <table class="list small">
              <tbody>
                {Object.entries(chosen).map(([name, value]) => (
                  <tr key={name}>
                    <th>{name}</th>
                    <td>
                      {typeof value === "object" && value !== null
                        ? JSON.stringify(value)
                        : String(value)}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </aside>
        )}
      </div>
      <div class="toolbar">
        <button
          type="button"
          disabled={offset === 0}
          onClick={() => setOffset(Math.max(0, offset - 50))}
        >
          Newer
        </button>
        <button
          type="button"
          disabled={page?.next === null || page === null}
          onClick={() => page?.next != null && setOffset(page.next)}
        >
          Older
        </button>
      </div>
    </div>
  )
}
