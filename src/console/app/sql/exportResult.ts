import { streamEndpoint } from "../api.js"
import type { Scope } from "../Shell.js"

export const EXPORT_FORMATS = {
  CSV: { format: "CSVWithNames", extension: "csv", type: "text/csv" },
  TSV: { format: "TSVWithNames", extension: "tsv", type: "text/tab-separated-values" },
  NDJSON: { format: "JSONEachRow", extension: "ndjson", type: "application/x-ndjson" },
  JSON: { format: "JSONEachRow", extension: "json", type: "application/json" }
} as const
export type ExportFormat = keyof typeof EXPORT_FORMATS

/**
 * The whole result of `sql` in `format`, read as the service streams it into a file
 * (never a page of it): rows go into the file's parts as they arrive, then the browser
 * saves it. JSON is the NDJSON rows as one array.
 */
export const exportResult = async (
  scope: Scope,
  sql: string,
  choice: ExportFormat,
  onBytes: (bytes: number) => void,
  signal: AbortSignal
) => {
  const { format, extension, type } = EXPORT_FORMATS[choice]
  const parts: Array<BlobPart> = []
  let bytes = 0
  let first = true
  let pending = ""
  const decoder = new TextDecoder()
  if (choice === "JSON") parts.push("[")
  await streamEndpoint("query", "query", {
    urlParams: {
      organization: scope.organization,
      cluster: scope.cluster,
      database: scope.database
    },
    body: { sql, format },
    signal,
    onChunk: (chunk) => {
      bytes += chunk.byteLength
      onBytes(bytes)
      if (choice !== "JSON") return void parts.push(chunk.slice())
      const lines = (pending + decoder.decode(chunk, { stream: true })).split("\n")
      pending = lines.pop() ?? ""
      for (const line of lines) {
        if (line === "") continue
        parts.push(first ? line : `,\n${line}`)
        first = false
      }
    }
  })
  if (choice === "JSON") {
    const last = pending + decoder.decode()
    if (last !== "") parts.push(first ? last : `,\n${last}`)
    parts.push("]\n")
  }
  const url = URL.createObjectURL(new Blob(parts, { type }))
  const link = document.createElement("a")
  link.href = url
  link.download = `result-${new Date().toISOString().replace(/[:.]/g, "-")}.${extension}`
  document.body.append(link)
  link.click()
  link.remove()
  setTimeout(() => URL.revokeObjectURL(url), 60_000)
}
