/**
 * A minimal HTTP/1.1 client on one keep-alive connection, as load generators such as wrk
 * have: it writes a request and reads one response (status line, headers, a body framed
 * by `content-length` or `chunked`), and does nothing else (no pool, redirects, streams or
 * retries). The query benchmark times requests with it so that the latency it reports is
 * the server's rather than a client library's: undici's response handling alone costs
 * about 0.2 ms a request on the 2-core machine (the benchmark prints undici's figure too).
 */
import * as net from "node:net"

export interface MinimalResponse {
  readonly status: number
  readonly body: string
}

const HEAD_END = Buffer.from("\r\n\r\n")
const LINE_END = Buffer.from("\r\n")

/** A complete response at the start of `buffer`, and its length; `undefined` until then. */
const parse = (buffer: Buffer): { response: MinimalResponse; length: number } | undefined => {
  const headEnd = buffer.indexOf(HEAD_END)
  if (headEnd < 0) return undefined
  const [statusLine = "", ...fields] = buffer.toString("latin1", 0, headEnd).split("\r\n")
  const status = Number(statusLine.split(" ")[1])
  const headers = new Map(
    fields.map((field) => {
      const colon = field.indexOf(":")
      return [field.slice(0, colon).trim().toLowerCase(), field.slice(colon + 1).trim()]
    })
  )
  const bodyStart = headEnd + HEAD_END.length
  const declared = headers.get("content-length")
  if (declared !== undefined) {
    const end = bodyStart + Number(declared)
    if (buffer.length < end) return undefined
    return { response: { status, body: buffer.toString("utf8", bodyStart, end) }, length: end }
  }
  if (headers.get("transfer-encoding")?.toLowerCase() !== "chunked") {
    throw new Error("a response without content-length or chunked framing")
  }
  const pieces: Array<Buffer> = []
  let at = bodyStart
  for (;;) {
    const sizeEnd = buffer.indexOf(LINE_END, at)
    if (sizeEnd < 0) return undefined
    const size = parseInt(buffer.toString("latin1", at, sizeEnd), 16)
    const dataStart = sizeEnd + LINE_END.length
    if (size === 0) {
      // No trailers are sent by the server measured; the last chunk ends with an empty line.
      if (buffer.length < dataStart + LINE_END.length) return undefined
      const body = Buffer.concat(pieces).toString("utf8")
      return { response: { status, body }, length: dataStart + LINE_END.length }
    }
    if (buffer.length < dataStart + size + LINE_END.length) return undefined
    pieces.push(buffer.subarray(dataStart, dataStart + size))
    at = dataStart + size + LINE_END.length
  }
}

/** Opens one connection to `url`'s host; requests on it go one at a time. */
export const connectMinimal = async (url: string) => {
  const { hostname, port } = new URL(url)
  const socket = net.connect(Number(port), hostname)
  socket.setNoDelay(true)
  await new Promise<void>((resolve, reject) => {
    socket.once("connect", resolve)
    socket.once("error", reject)
  })
  let buffer: Buffer = Buffer.alloc(0)
  let waiting:
    { resolve: (response: MinimalResponse) => void; reject: (error: Error) => void } | undefined
  const fail = (error: Error) => {
    waiting?.reject(error)
    waiting = undefined
  }
  socket.on("data", (chunk: Buffer) => {
    buffer = buffer.length === 0 ? chunk : Buffer.concat([buffer, chunk])
    if (waiting === undefined) return
    try {
      const complete = parse(buffer)
      if (complete === undefined) return
      buffer = buffer.subarray(complete.length)
      const { resolve } = waiting
      waiting = undefined
      resolve(complete.response)
    } catch (error) {
      fail(error as Error)
    }
  })
  // A request on a connection already gone fails at once rather than waiting forever.
  let gone: Error | undefined
  socket.on("error", (error) => {
    gone = error
    fail(error)
  })
  socket.on("close", () => {
    gone ??= new Error("the server closed the connection")
    fail(gone)
  })

  // A body, when there is one, is framed by its length.
  const send = (method: string, path: string, headers: Record<string, string>, body?: string) =>
    new Promise<MinimalResponse>((resolve, reject) => {
      if (waiting !== undefined) throw new Error("one request at a time")
      if (gone !== undefined) return reject(gone)
      waiting = { resolve, reject }
      const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`)
      const length = body === undefined ? "" : `content-length: ${Buffer.byteLength(body)}\r\n`
      socket.write(
        `${method} ${path} HTTP/1.1\r\nhost: ${hostname}:${port}\r\n${lines.join("")}` +
          `${length}\r\n${body ?? ""}`
      )
    })

  const post = (path: string, headers: Record<string, string>, body: string) =>
    send("POST", path, headers, body)
  const get = (path: string, headers: Record<string, string> = {}) => send("GET", path, headers)

  return { post, get, close: () => socket.end() }
}
