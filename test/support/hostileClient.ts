/**
 * A keep-alive HTTP/1.1 client for the hostile-input suite: raw paths (no URL
 * normalisation, so `..` and bad percent-encoding reach the server as sent), raw bytes,
 * and a dropped connection reported as such instead of thrown.
 */
import * as http from "node:http"

export interface Sent {
  readonly method: string
  readonly path: string
  readonly headers: Readonly<Record<string, string>>
  readonly body: Uint8Array | undefined
}

export type Outcome =
  | {
      readonly _tag: "Answered"
      readonly status: number
      readonly contentType: string
      readonly text: string
    }
  | { readonly _tag: "Dropped"; readonly reason: string }

export const keepAliveClient = (baseUrl: string, connections: number) => {
  const { hostname, port } = new URL(baseUrl)
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections })
  const send = (request: Sent) =>
    new Promise<Outcome>((resolve) => {
      const headers: Record<string, string | number> = { ...request.headers }
      if (request.body !== undefined) headers["content-length"] = request.body.length
      const outgoing = http.request(
        { host: hostname, port, method: request.method, path: request.path, headers, agent },
        (response) => {
          const chunks: Array<Buffer> = []
          response.on("data", (chunk: Buffer) => chunks.push(chunk))
          response.on("end", () =>
            resolve(
              response.complete
                ? {
                    _tag: "Answered",
                    status: response.statusCode ?? 0,
                    contentType: response.headers["content-type"] ?? "",
                    text: Buffer.concat(chunks).toString("utf8")
                  }
                : { _tag: "Dropped", reason: "the response ended before it was complete" }
            )
          )
          response.on("error", (error) => resolve({ _tag: "Dropped", reason: error.message }))
        }
      )
      outgoing.on("error", (error) => resolve({ _tag: "Dropped", reason: error.message }))
      outgoing.end(request.body === undefined ? undefined : Buffer.from(request.body))
    })
  return { send, close: () => agent.destroy() }
}
