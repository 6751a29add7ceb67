/**
 * `@clickhouse/client`'s connection to a ClickHouse server over Node's own HTTP client:
 * the client keeps everything above it (result sets, the errors it parses, its log).
 *
 * The client's built-in connection waits for a timer's turn (`setTimeout(0)`, at least
 * 1 ms) before every request, so that the timers dropping its idle sockets may run
 * first. That wait was most of what a sluice node added to a small query on a server.
 * Here a keep-alive socket idle longer than `idleSocketMs` is dropped when the next
 * request starts, the same check as the client's `eagerly_destroy_stale_sockets`, so a
 * late timer on a busy process cannot hand a request a socket the server has closed.
 */
import { parseError } from "@clickhouse/client"
// The contract of the client's `connection` option, which the package does not export:
// checked here, so an upgrade that changes it fails the type check, not a request.
import type {
  ClickHouseSummary,
  Connection,
  ConnExecResult
} from "@clickhouse/client/dist/common/index.js"
import { randomUUID } from "node:crypto"
import * as http from "node:http"
import * as https from "node:https"
import type { Socket } from "node:net"
import { pipeline, Readable } from "node:stream"

export interface HttpConnectionOptions {
  readonly url: string
  readonly username: string
  readonly password: string
  /**
   * A request that sends or receives nothing for this long fails (the client's default
   * unless given): longer than any statement's own time limit, so that the server says
   * when a statement runs too long.
   */
  readonly requestTimeoutMs?: number
  /** Sockets kept open to the server: the client's default. */
  readonly maxSockets?: number
  /** How long an idle keep-alive socket is kept: the client's default. */
  readonly idleSocketMs?: number
}

/** What the client passes its connection for a statement (the subset sluice's calls use). */
interface StatementParams {
  readonly query: string
  readonly clickhouse_settings?: Readonly<Record<string, unknown>>
  readonly query_params?: Readonly<Record<string, unknown>>
  readonly abort_signal?: AbortSignal
  readonly session_id?: string
  readonly query_id?: string
  readonly role?: string | ReadonlyArray<string>
  readonly http_headers?: Readonly<Record<string, string>>
  readonly auth?:
    { readonly username: string; readonly password: string } | { readonly access_token: string }
}

interface ExecParams extends StatementParams {
  /** The statement's data: the statement then travels in the URL. */
  readonly values?: string | Readable
}

type Answer = ConnExecResult<Readable>

const REQUEST_TIMEOUT_MS = 30_000
const MAX_SOCKETS = 10
const IDLE_SOCKET_MS = 2_500

/** A request silent past `requestTimeoutMs`: a socket's timeout, as the engine reads those. */
const timedOut = () =>
  Object.assign(new Error("The request to the ClickHouse server timed out."), {
    code: "ETIMEDOUT"
  })

/** A value of `param_<name>`, escaped as the server reads it. */
const paramValue = (value: unknown): string => {
  if (value === null || value === undefined) return "\\N"
  if (typeof value === "boolean") return value ? "1" : "0"
  if (typeof value === "number" || typeof value === "bigint") return String(value)
  if (typeof value === "string") return value.replace(/[\t\n\r'\\]/g, (c) => ESCAPES[c]!)
  throw new Error(`Unsupported query parameter: ${typeof value}`)
}
const ESCAPES: Record<string, string> = {
  "\t": "\\t",
  "\n": "\\n",
  "\r": "\\r",
  "'": "\\'",
  "\\": "\\\\"
}

const settingValue = (value: unknown): string => {
  if (typeof value === "boolean") return value ? "1" : "0"
  if (typeof value === "number" || typeof value === "string") return String(value)
  // `SettingsMap` and the like print themselves in the server's syntax.
  if (typeof value === "object" && value !== null) return String(value)
  throw new Error(`Unsupported setting value: ${typeof value}`)
}

// Whole before decoding: a character may span two chunks.
const textOf = async (stream: Readable) => {
  const chunks: Array<Buffer> = []
  for await (const chunk of stream) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks).toString("utf8")
}

const drain = async (stream: Readable) => {
  for await (const _ of stream) {
    // Reading the body to its end releases the socket.
  }
}

const summaryOf = (headers: http.IncomingHttpHeaders): { summary?: ClickHouseSummary } => {
  const raw = headers["x-clickhouse-summary"]
  if (typeof raw !== "string") return {}
  try {
    return { summary: JSON.parse(raw) as ClickHouseSummary }
  } catch {
    return {}
  }
}

export const httpConnection = (options: HttpConnectionOptions): Connection<Readable> => {
  const base = new URL(options.url)
  const secure = base.protocol === "https:"
  const idleMs = options.idleSocketMs ?? IDLE_SOCKET_MS
  const agentOptions = {
    keepAlive: true,
    maxSockets: options.maxSockets ?? MAX_SOCKETS,
    // Node also honours a shorter `Keep-Alive: timeout` the server sends.
    timeout: idleMs
  }
  const agent = secure ? new https.Agent(agentOptions) : new http.Agent(agentOptions)
  const freedAt = new WeakMap<Socket, number>()
  agent.on("free", (socket: Socket) => freedAt.set(socket, Date.now()))
  const basic = (username: string, password: string) =>
    `Basic ${Buffer.from(`${username}:${password}`).toString("base64")}`
  const defaultAuthorization = basic(options.username, options.password)
  const timeoutMs = options.requestTimeoutMs ?? REQUEST_TIMEOUT_MS

  /** Sockets idle past their time, which a late timer has not dropped yet. */
  const dropStale = () => {
    const now = Date.now()
    for (const sockets of Object.values(agent.freeSockets)) {
      for (const socket of [...(sockets ?? [])]) {
        const since = freedAt.get(socket)
        if (since !== undefined && now - since >= idleMs) socket.destroy()
      }
    }
  }

  const urlOf = (params: ExecParams, queryId: string) => {
    const url = new URL(base)
    const search = url.searchParams
    search.set("query_id", queryId)
    for (const [name, value] of Object.entries(params.query_params ?? {})) {
      search.append(`param_${name}`, paramValue(value))
    }
    for (const [name, value] of Object.entries(params.clickhouse_settings ?? {})) {
      if (value !== undefined) search.append(name, settingValue(value))
    }
    if (params.values !== undefined) search.append("query", params.query)
    if (params.session_id !== undefined) search.append("session_id", params.session_id)
    const roles = params.role === undefined ? [] : [params.role].flat()
    for (const role of roles) search.append("role", role)
    return url
  }

  const authorizationOf = (params: ExecParams) => {
    const auth = params.auth
    if (auth === undefined) return defaultAuthorization
    return "access_token" in auth
      ? `Bearer ${auth.access_token}`
      : basic(auth.username, auth.password)
  }

  const exec = (params: ExecParams): Promise<Answer> =>
    new Promise<Answer>((resolve, reject) => {
      dropStale()
      const queryId = params.query_id || randomUUID()
      const body = params.values ?? params.query
      const request = (secure ? https : http).request(urlOf(params, queryId), {
        method: "POST",
        agent,
        headers: {
          ...params.http_headers,
          Authorization: authorizationOf(params),
          "User-Agent": "sluice",
          ...(typeof body === "string" ? { "Content-Length": Buffer.byteLength(body) } : {})
        },
        ...(params.abort_signal === undefined ? {} : { signal: params.abort_signal }),
        timeout: timeoutMs
      })
      request.once("timeout", () => request.destroy(timedOut()))
      request.on("error", (error) =>
        reject(
          params.abort_signal?.aborted === true ? new Error("The user aborted a request.") : error
        )
      )
      request.once("response", (response) => {
        const failed =
          (response.statusCode ?? 500) >= 300 ||
          response.headers["x-clickhouse-exception-code"] !== undefined
        if (failed) {
          textOf(response).then((text) => reject(parseError(text)), reject)
          return
        }
        resolve({
          stream: response,
          query_id: queryId,
          ...summaryOf(response.headers),
          response_headers: { ...response.headers },
          http_status_code: response.statusCode ?? 200
        })
      })
      if (typeof body === "string") request.end(body)
      else
        pipeline(body, request, (error) => {
          if (error !== undefined && error !== null) reject(error)
        })
    })

  return {
    exec,
    query: (params: StatementParams) => exec(params),
    command: async (params: StatementParams) => {
      const { stream, ...answer } = await exec(params)
      await drain(stream)
      return answer
    },
    insert: async (params: ExecParams) => {
      const { stream, ...answer } = await exec(params)
      await drain(stream)
      return answer
    },
    ping: () =>
      new Promise<{ success: true } | { success: false; error: Error }>((resolve) => {
        const url = new URL(base)
        url.pathname = `${url.pathname.replace(/\/$/, "")}/ping`
        const request = (secure ? https : http).request(url, { agent, timeout: timeoutMs })
        request.once("timeout", () => request.destroy(timedOut()))
        request.on("error", (error) => resolve({ success: false, error }))
        request.once("response", (response) => {
          drain(response).then(
            () =>
              resolve(
                response.statusCode === 200
                  ? { success: true }
                  : { success: false, error: new Error(`HTTP ${response.statusCode}`) }
              ),
            (error: Error) => resolve({ success: false, error })
          )
        })
        request.end()
      }),
    close: async () => agent.destroy()
  }
}
