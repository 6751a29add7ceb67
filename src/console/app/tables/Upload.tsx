import { useState } from "preact/hooks"
import { ApiFailure, uploadToEndpoint } from "../api.js"
import { ErrorNote } from "../ErrorNote.js"
import type { Scope } from "../Shell.js"
import { countOf, formatBytes } from "../sql/resultStream.js"

const tableNameOf = (file: string) =>
  file
    .replace(/\.(gz|gzip)$/i, "")
    .replace(/\.(json|ndjson|jsonl)$/i, "")
    .replace(/[^A-Za-z0-9_]/g, "_")
    .replace(/^(\d)/, "_$1")

/** JSON, NDJSON or gzip files dropped here go into a table, with the upload's progress. */
export const Upload = ({ scope, onInserted }: { scope: Scope; onInserted: () => void }) => {
  const [table, setTable] = useState("")
  const [over, setOver] = useState(false)
  const [progress, setProgress] = useState<{ name: string; sent: number; total: number } | null>(
    null
  )
  const [result, setResult] = useState<string | null>(null)
  const [failure, setFailure] = useState<ApiFailure | null>(null)
  const send = async (file: File) => {
    const target = table === "" ? tableNameOf(file.name) : table
    setTable(target)
    setFailure(null)
    setResult(null)
    setProgress({ name: file.name, sent: 0, total: file.size })
    try {
      const answer = (await uploadToEndpoint("tables", "insert", {
        path: { table: target },
        urlParams: {
          organization: scope.organization,
          cluster: scope.cluster,
          database: scope.database
        },
        body: file,
        headers: {
          "content-type": "application/json",
          ...(/\.(gz|gzip)$/i.test(file.name) ? { "content-encoding": "gzip" } : {})
        },
        onProgress: (sent, total) => setProgress({ name: file.name, sent, total })
      })) as { inserted?: number } | null
      setResult(
        `${countOf(answer?.inserted ?? 0, "row")} inserted into ${target} from ${file.name}.`
      )
      onInserted()
    } catch (error) {
      setFailure(
        error instanceof ApiFailure ? error : new ApiFailure("internal", String(error), "", null)
      )
    } finally {
      setProgress(null)
    }
  }
  return (
    <section aria-label="Upload" class="upload">
      <h2>Upload</h2>
      <div class="form">
        <label>
          Into table
          <input
            value={table}
            placeholder="named after the file"
            onInput={(e) => setTable(e.currentTarget.value)}
          />
        </label>
        <label>
          File
          <input
            type="file"
            accept=".json,.ndjson,.jsonl,.gz,application/json"
            onChange={(e) => {
              const file = e.currentTarget.files?.[0]
              if (file !== undefined) void send(file)
            }}
          />
        </label>
      </div>
      <div
        class={over ? "drop over" : "drop"}
        onDragOver={(e) => {
          e.preventDefault()
          setOver(true)
        }}
        onDragLeave={() => setOver(false)}
        onDrop={(e) => {
          e.preventDefault()
          setOver(false)
          const file = e.dataTransfer?.files[0]
          if (file !== undefined) void send(file)
        }}
      >
        Drop a JSON, NDJSON or gzip file here
      </div>
      {progress === null ? null : (
        <div role="status">
          Sending {progress.name}: {formatBytes(progress.sent)} of {formatBytes(progress.total)}
          <progress max={progress.total} value={progress.sent} aria-label="Upload" />
        </div>
      )}
      {result === null ? null : <p role="status">{result}</p>}
      <ErrorNote failure={failure} />
    </section>
  )
}
