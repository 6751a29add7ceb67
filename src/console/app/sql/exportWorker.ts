/**
 * The console's service worker, for browsers without `showSaveFilePicker`: it turns an
 * export into a download the browser writes to disk as the rows arrive. The page hands it
 * the contract request (its bearer token in a header, never in an address) over a message
 * port; a hidden frame then opens `/assets/export/{id}` once, and the answer is the
 * query's own stream with `Content-Disposition: attachment`. Built on its own (no module
 * imports at run time), typed with the DOM's types: the worker's are not in this program.
 */
import { EXPORT_PREFIX } from "./exportProtocol.js"
import type { ExportJob, ExportNews } from "./exportProtocol.js"
import { counted, jsonArray } from "./jsonArray.js"

interface FetchEventLike extends Event {
  readonly request: Request
  respondWith(response: Promise<Response>): void
}
interface WorkerScope {
  skipWaiting(): Promise<void>
  readonly clients: { claim(): Promise<void> }
}
interface ExtendableEventLike extends Event {
  waitUntil(promise: Promise<unknown>): void
}

const isFetch = (event: Event): event is FetchEventLike => "respondWith" in event
const isExtendable = (event: Event): event is ExtendableEventLike => "waitUntil" in event
const isWorker = (scope: object): scope is WorkerScope => "skipWaiting" in scope

const jobs = new Map<string, { job: ExportJob; port: MessagePort }>()

const download = async (job: ExportJob, port: MessagePort): Promise<Response> => {
  const tell = (news: ExportNews) => port.postMessage(news)
  const stop = new AbortController()
  port.onmessage = () => stop.abort()
  const response = await fetch(job.request.url, {
    method: "POST",
    headers: job.request.headers,
    body: job.request.body ?? null,
    signal: stop.signal
  })
  if (!response.ok || response.body === null) {
    tell({ kind: "failed", status: response.status, text: await response.text() })
    return new Response(null, { status: 204 })
  }
  const counting = response.body.pipeThrough(
    counted((total) => tell({ kind: "bytes", bytes: total }))
  )
  const file = (job.json ? counting.pipeThrough(jsonArray()) : counting).pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({ flush: () => tell({ kind: "done" }) })
  )
  return new Response(file, {
    headers: {
      "content-type": job.type,
      "content-disposition": `attachment; filename="${job.filename}"`
    }
  })
}

const start = () => {
  self.addEventListener("install", (event) => {
    if (isWorker(self) && isExtendable(event)) event.waitUntil(self.skipWaiting())
  })
  self.addEventListener("activate", (event) => {
    if (isWorker(self) && isExtendable(event)) event.waitUntil(self.clients.claim())
  })
  self.addEventListener("message", (event: MessageEvent<ExportJob>) => {
    const port = event.ports[0]
    if (port === undefined) return
    jobs.set(event.data.id, { job: event.data, port })
    port.postMessage({ kind: "ready" } satisfies ExportNews)
  })
  self.addEventListener("fetch", (event) => {
    if (!isFetch(event)) return
    const { pathname } = new URL(event.request.url)
    if (!pathname.startsWith(EXPORT_PREFIX)) return
    const id = pathname.slice(EXPORT_PREFIX.length)
    const found = jobs.get(id)
    // One download per job: a second opening of the address finds nothing.
    jobs.delete(id)
    event.respondWith(
      found === undefined
        ? Promise.resolve(new Response("This export has already been downloaded.", { status: 410 }))
        : download(found.job, found.port).catch((error: unknown) => {
            found.port.postMessage({
              kind: "failed",
              status: 0,
              text: String(error)
            } satisfies ExportNews)
            return new Response(null, { status: 204 })
          })
    )
  })
}

start()
