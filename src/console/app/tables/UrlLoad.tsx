import { useState } from "preact/hooks"
import { ApiFailure, streamEndpoint } from "../api.js"
import { ErrorNote } from "../ErrorNote.js"
import type { Scope } from "../Shell.js"
import { lineSplitter } from "../sql/resultStream.js"

/** A file the service fetches into a table, its progress lines shown as they come. */
export const UrlLoad = ({ scope, onLoaded }: { scope: Scope; onLoaded: () => void }) => {
  const [table, setTable] = useState("")
  const [url, setUrl] = useState("")
  const [lines, setLines] = useState<ReadonlyArray<string>>([])
  const [busy, setBusy] = useState(false)
  const [failure, setFailure] = useState<ApiFailure | null>(null)
  const load = async (event: Event) => {
    event.preventDefault()
    setBusy(true)
    setFailure(null)
    setLines([])
    const splitter = lineSplitter((line) => {
      if (line !== "") setLines((previous) => [...previous.slice(-50), line])
    })
    try {
      await streamEndpoint("tables", "insert", {
        path: { table },
        urlParams: {
          organization: scope.organization,
          cluster: scope.cluster,
          database: scope.database,
          url
        },
        headers: { accept: "application/x-ndjson" },
        onChunk: (chunk) => splitter.push(chunk)
      })
      splitter.end()
      onLoaded()
    } catch (error) {
      setFailure(
        error instanceof ApiFailure ? error : new ApiFailure("internal", String(error), "", null)
      )
    } finally {
      setBusy(false)
    }
  }
  return (
    <section aria-label="Load from a URL">
      <h2>Load from a URL</h2>
      <form class="form" onSubmit={load}>
        <label>
          Table
          <input value={table} required onInput={(e) => setTable(e.currentTarget.value)} />
        </label>
        <label>
          URL
          <input type="url" value={url} required onInput={(e) => setUrl(e.currentTarget.value)} />
        </label>
        <button type="submit" disabled={busy}>
          {busy ? "Loading…" : "Load"}
        </button>
      </form>
      {lines.length === 0 ? null : (
        <pre class="lines" role="log" aria-label="Load progress">
          {lines.join("\n")}
        </pre>
      )}
      <ErrorNote failure={failure} />
    </section>
  )
}
