import { ApiFailure, contractRequest, failureOfReply } from "../api.js"
import type { ContractRequest } from "../api.js"
import type { Scope } from "../Shell.js"
import { EXPORT_PREFIX } from "./exportProtocol.js"
import type { ExportJob, ExportNews } from "./exportProtocol.js"
import { counted, jsonArray } from "./jsonArray.js"

declare const SLUICE_EXPORT_WORKER: string

export const EXPORT_FORMATS = {
  CSV: { format: "CSVWithNames", extension: "csv", type: "text/csv" },
  TSV: { format: "TSVWithNames", extension: "tsv", type: "text/tab-separated-values" },
  NDJSON: { format: "JSONEachRow", extension: "ndjson", type: "application/x-ndjson" },
  JSON: { format: "JSONEachRow", extension: "json", type: "application/json" }
} as const
export type ExportFormat = keyof typeof EXPORT_FORMATS

interface SavePicker {
  (options: {
    suggestedName: string
    types: Array<{ description: string; accept: Record<string, Array<string>> }>
  }): Promise<FileSystemFileHandle>
}

const savePicker = (): SavePicker | null => {
  const picker: unknown = Reflect.get(window, "showSaveFilePicker")
  return typeof picker === "function" ? (options) => Reflect.apply(picker, window, [options]) : null
}

/** Into a file the user picked (File System Access): each chunk written as it arrives. */
const intoPickedFile = async (
  picker: SavePicker,
  request: ContractRequest,
  job: { filename: string; type: string; extension: string; json: boolean },
  onBytes: (bytes: number) => void,
  signal: AbortSignal
) => {
  let handle: FileSystemFileHandle
  try {
    handle = await picker({
      suggestedName: job.filename,
      types: [
        { description: job.extension.toUpperCase(), accept: { [job.type]: [`.${job.extension}`] } }
      ]
    })
  } catch {
    return // The user closed the picker.
  }
  const response = await fetch(request.url, {
    method: "POST",
    headers: request.headers,
    body: request.body ?? null,
    signal
  })
  if (!response.ok || response.body === null)
    throw failureOfReply(response.status, await response.text())
  const body = response.body.pipeThrough(counted(onBytes))
  await (job.json ? body.pipeThrough(jsonArray()) : body).pipeTo(await handle.createWritable(), {
    signal
  })
}

let registered: Promise<ServiceWorker> | null = null
const exportWorker = () =>
  (registered ??= navigator.serviceWorker
    .register(`/assets/${SLUICE_EXPORT_WORKER}`, { scope: EXPORT_PREFIX })
    .then(async (registration) => {
      const worker = registration.installing ?? registration.waiting ?? registration.active
      if (worker === null) throw new Error("the export worker did not install")
      while (worker.state !== "activated") {
        if (worker.state === "redundant") throw new Error("the export worker was replaced")
        await new Promise((resolve) =>
          worker.addEventListener("statechange", resolve, { once: true })
        )
      }
      return worker
    })
    .catch((error: unknown) => {
      registered = null
      throw error
    }))

/**
 * A download the browser writes as the rows arrive: the service worker makes the request
 * and answers a hidden frame's navigation with the query's stream as an attachment.
 */
const asDownload = async (
  request: ContractRequest,
  job: { filename: string; type: string; json: boolean },
  onBytes: (bytes: number) => void,
  signal: AbortSignal
) => {
  const worker = await exportWorker()
  const channel = new MessageChannel()
  const id = crypto.randomUUID()
  const frame = document.createElement("iframe")
  frame.hidden = true
  frame.title = "Export download"
  try {
    await new Promise<void>((resolve, reject) => {
      const stop = () => {
        channel.port1.postMessage("stop")
        reject(new ApiFailure("cancelled", "Export stopped.", "", null))
      }
      signal.addEventListener("abort", stop, { once: true })
      channel.port1.onmessage = (event: MessageEvent<ExportNews>) => {
        const news = event.data
        if (news.kind === "ready") {
          frame.src = `${EXPORT_PREFIX}${id}`
          document.body.append(frame)
        } else if (news.kind === "bytes") onBytes(news.bytes)
        else if (news.kind === "done") resolve()
        else
          reject(
            news.status === 0
              ? new ApiFailure("offline", "The export was interrupted.", "", null)
              : failureOfReply(news.status, news.text)
          )
      }
      const message: ExportJob = { id, request, ...job }
      worker.postMessage(message, [channel.port2])
    })
  } finally {
    channel.port1.close()
    // The browser has the download by now; the frame only started it.
    setTimeout(() => frame.remove(), 1000)
  }
}

/**
 * The whole result of `sql` in `format`, streamed into a file as the service sends it
 * (never a page of it, never the whole of it in memory): into a file the user picks where
 * the browser lets a page write one, else as a download. JSON is the NDJSON rows as one
 * array.
 */
export const exportResult = async (
  scope: Scope,
  sql: string,
  choice: ExportFormat,
  onBytes: (bytes: number) => void,
  signal: AbortSignal
) => {
  const { format, extension, type } = EXPORT_FORMATS[choice]
  const request = contractRequest("query", "query", {
    urlParams: {
      organization: scope.organization,
      cluster: scope.cluster,
      database: scope.database
    },
    body: { sql, format }
  })
  const job = {
    filename: `result-${new Date().toISOString().replace(/[:.]/g, "-")}.${extension}`,
    type,
    extension,
    json: choice === "JSON"
  }
  const picker = savePicker()
  return picker === null
    ? asDownload(request, job, onBytes, signal)
    : intoPickedFile(picker, request, job, onBytes, signal)
}
