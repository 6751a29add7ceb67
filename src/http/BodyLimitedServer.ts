/**
 * Node's HTTP server with one change to its request object: when a reader gives up on
 * a body that is still arriving (the platform does so when a body passes its size
 * limit), the connection is not torn down at once. Tearing it down would drop the 413
 * before it is written; instead reading stops, the response is marked
 * `connection: close`, and Node closes the connection once the response is out.
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

export const createBodyLimitedServer = () => {
  const server = createServer({ IncomingMessage: BodyLimitedIncomingMessage })
  server.prependListener("request", (request, response) => {
    if (request instanceof BodyLimitedIncomingMessage) request.response = response
  })
  return server
}
