/**
 * Node's HTTP server with two changes:
 * - Its request object: when a reader gives up on a body that is still arriving (the
 *   platform does so when a body passes its size limit), the connection is not torn
 *   down at once. Tearing it down would drop the 413 before it is written; instead
 *   reading stops, the response is marked `connection: close`, and Node closes the
 *   connection once the response is out.
 * - An idle connection is kept 75 s, not Node's 5 s. Ingest clients send a batch every
 *   few seconds on a kept connection (Prometheus's remote write at least every 5 s while
 *   it has samples, the Collector's exporters and HEC senders alike) and keep idle ones
 *   far longer without reading the server's `Keep-Alive` hint (Go's default transport:
 *   90 s). At 5 s a client reusing a connection could send just as the server closed it,
 *   and a POST sent so fails without a retry (seen here with Node's fetch, whose process
 *   had been busy past the hint). Clients that read the hint
 *   (`Keep-Alive: timeout=75` in each answer) stay within it.
 * - Once the server is closing, a kept connection is closed as soon as its answer is out,
 *   and answers say `connection: close`. Node's `close()` closes only the connections idle
 *   at that moment: one answering then stayed open its 75 idle seconds, and a node being
 *   stopped under load took that long to exit.
 */
import { IncomingMessage, createServer } from "node:http"
import type { ServerResponse } from "node:http"

class BodyLimitedIncomingMessage extends IncomingMessage {
  response: ServerResponse | undefined

  override destroy(error?: Error): this {
    const response = this.response
    if (error === undefined && !this.complete && response && !response.headersSent) {
      this.pause()
      response.shouldKeepAlive = false
      return this
    }
    return super.destroy(error)
  }
}

/** How long an idle kept connection stays open. */
export const KEEP_ALIVE_MS = 75_000

export const createBodyLimitedServer = () => {
  const server = createServer({
    IncomingMessage: BodyLimitedIncomingMessage,
    keepAliveTimeout: KEEP_ALIVE_MS,
    // Longer than the idle time, so a request arriving as it ends is read whole.
    headersTimeout: KEEP_ALIVE_MS + 1_000
  })
  let closing = false
  const answering = new Set<ServerResponse>()
  const closeIdle = () => setImmediate(() => server.closeIdleConnections())
  server.prependListener("request", (request, response) => {
    if (request instanceof BodyLimitedIncomingMessage) request.response = response
    if (closing) response.shouldKeepAlive = false
    answering.add(response)
    response.once("close", () => {
      answering.delete(response)
      if (closing) closeIdle()
    })
  })
  const close = server.close.bind(server)
  server.close = (callback) => {
    closing = true
    for (const response of answering) if (!response.headersSent) response.shouldKeepAlive = false
    return close(callback)
  }
  return server
}
