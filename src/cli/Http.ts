/**
 * Raw requests for what the typed client does not decode: streamed query results,
 * insert bodies, progress streams. Node's own `http` keeps a start cheap and lets a
 * response be read as it arrives, at the pace stdout takes it.
 */
import { Effect } from "effect"
import * as http from "node:http"
import * as https from "node:https"
import type { Readable } from "node:stream"
import { failure } from "./CliError.js"
import type { Session } from "./Session.js"
import { clientHeaders } from "./Version.js"

export interface RawRequest {
  readonly method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE"
  readonly path: string
  readonly query?: Readonly<Record<string, string | undefined>>
  readonly headers?: Readonly<Record<string, string>>
  readonly body?: string | Uint8Array
}

export interface RawResponse {
  readonly status: number
  readonly headers: http.IncomingHttpHeaders
  readonly body: Readable
}

const agentOptions = { keepAlive: true }
const agents = { http: new http.Agent(agentOptions), https: new https.Agent(agentOptions) }

export const urlOf = (session: Session, request: Pick<RawRequest, "path" | "query">) => {
  const url = new URL(request.path, `${session.url}/`)
  for (const [name, value] of Object.entries(request.query ?? {}))
    if (value !== undefined) url.searchParams.set(name, value)
  return url
}

const networkReasons: Readonly<Record<string, string>> = {
  ECONNREFUSED: "connection refused",
  ENOTFOUND: "no such host",
  EAI_AGAIN: "no such host (DNS did not answer)",
  ETIMEDOUT: "timed out",
  UND_ERR_CONNECT_TIMEOUT: "timed out",
  ECONNRESET: "the connection was reset",
  EHOSTUNREACH: "no route to the host",
  CERT_HAS_EXPIRED: "its TLS certificate has expired",
  DEPTH_ZERO_SELF_SIGNED_CERT: "its TLS certificate is self-signed"
}

/** Why a connection failed, in words: the code of `error` or of an error it wraps, else the innermost message. */
export const networkReason = (error: unknown): string => {
  let message = error instanceof Error ? error.message : String(error)
  for (let e = error, depth = 0; typeof e === "object" && e !== null && depth < 5; depth++) {
    if ("code" in e && typeof e.code === "string") return networkReasons[e.code] ?? e.code
    if (e instanceof Error) message = e.message
    e = "cause" in e ? e.cause : undefined
  }
  return message
}

export const unreachable = (session: Session, error: unknown) =>
  failure(
    `Cannot reach ${session.url}: ${networkReason(error)}.`,
    "Is the server running? Check --url, SLUICE_URL or the profile (`sluice whoami`)."
  )

/** Node's request of `method` to `url` on the kept connections. */
export const nodeRequest = (url: URL, method: string, headers: Record<string, string>) =>
  url.protocol === "https:"
    ? https.request(url, { method, headers, agent: agents.https })
    : http.request(url, { method, headers, agent: agents.http })

/** Sends a request; the response's body is left unread (interrupting ends the request). */
export const send = (session: Session, request: RawRequest) =>
  Effect.async<RawResponse, ReturnType<typeof failure>>((resume) => {
    const url = urlOf(session, request)
    const headers: Record<string, string> = { ...clientHeaders, ...request.headers }
    if (session.token !== undefined) headers.authorization = `Bearer ${session.token}`
    if (request.body !== undefined)
      headers["content-length"] = String(Buffer.byteLength(request.body))
    const req = nodeRequest(url, request.method, headers)
    req.on("response", (res) =>
      resume(Effect.succeed({ status: res.statusCode ?? 0, headers: res.headers, body: res }))
    )
    req.on("error", (e: NodeJS.ErrnoException) => resume(Effect.fail(unreachable(session, e))))
    req.end(request.body)
    return Effect.sync(() => req.destroy())
  })

export const readText = (body: Readable) =>
  Effect.async<string, ReturnType<typeof failure>>((resume) => {
    const chunks: Array<Buffer> = []
    body.on("data", (chunk: Buffer) => chunks.push(chunk))
    body.on("end", () => resume(Effect.succeed(Buffer.concat(chunks).toString("utf8"))))
    body.on("error", (e) => resume(Effect.fail(failure(`The answer was cut off: ${e.message}.`))))
    return Effect.sync(() => body.destroy())
  })

// The API's calls named in hints, and the command that does the same.
const listings: ReadonlyArray<readonly [RegExp, string]> = [
  // The CLI checks `--size` before asking, and its refusal lists the catalog's sizes.
  [/ \(GET \/v1\/clusters\/sizes\)/g, ""],
  [/POST \/v1\/clusters\/[^/ ]+\/resume\b(\?[^ .]*)?/g, "`sluice clusters resume CLUSTER`"],
  [/GET \/v1\/clusters\b(\?[^ ]*)?/g, "`sluice clusters`"],
  [/GET \/v1\/databases\b/g, "`sluice databases`"],
  [/POST \/v1\/databases\b/g, "`sluice databases create`"],
  [/GET \/v1\/tables\/\{table\}/g, "`sluice tables describe TABLE`"],
  [/DELETE \/v1\/tables\/\{table\}/g, "`sluice tables drop TABLE`"],
  [/GET \/v1\/tables\b/g, "`sluice tables`"],
  [/GET \/v1\/keys\b/g, "`sluice keys`"],
  [/GET \/v1\/organizations\/[^/ ]+\/members\b/g, "`sluice members`"],
  [/GET \/v1\/organizations\b/g, "`sluice organizations`"],
  [/PATCH \/v1\/apps\/spl\/searches\/\{search_id\}/g, "`sluice saved-searches update`"],
  [/POST \/v1\/apps\/spl\/searches\b/g, "`sluice saved-searches create`"],
  [/GET \/v1\/apps\/spl\/searches\b/g, "`sluice saved-searches`"],
  [/GET \/v1\/apps\b/g, "`sluice apps`"]
]

/** A hint that names the API's way to do something names the CLI's instead. */
export const cliHint = (message: string, hint: string) => {
  const app = /PUT \/v1\/apps\/([a-z-]+)/.exec(hint)?.[1]
  if (app !== undefined)
    return `An organization admin installs it: \`sluice apps install ${app}\` (logged in as a user).`
  if (/^PATCH the member/.test(hint))
    return "Change a member's role with `sluice members role EMAIL ROLE`."
  if (/POST \/v1\/auth\/login/.test(hint))
    return /user session/.test(message)
      ? "Log in as a user with `sluice login` (or --password); an API key cannot do this."
      : "Run `sluice login`, or set SLUICE_TOKEN to a valid API key."
  return listings.reduce((text, [call, command]) => text.replace(call, command), hint)
}

/** A user's session kept in the profile by `sluice login` (not a key, not SLUICE_TOKEN). */
export const isLoginSession = (session: Session) =>
  session.credential === "session" && session.email !== undefined

/** A login session the server no longer accepts. */
export const sessionEnded = (session: Session) =>
  failure(
    `Your session on ${session.url} has ended (it expired, or was logged out).`,
    `Log in again: \`sluice login${session.profileName === "default" ? "" : ` --profile ${session.profileName}`}\`.`
  )

/**
 * The API's `{error, message, hint}` as a failure; anything else by its status. With the
 * session, a refused login session says so and how to log in again.
 */
export const errorOf = (status: number, text: string, session?: Session) => {
  if (status === 401 && session !== undefined && isLoginSession(session))
    return sessionEnded(session)
  try {
    const body = JSON.parse(text) as { message?: unknown; hint?: unknown; error?: unknown }
    if (typeof body.message === "string")
      return failure(
        body.message,
        cliHint(body.message, typeof body.hint === "string" ? body.hint : "")
      )
    if (typeof body.error === "string") return failure(body.error)
  } catch {
    // Not JSON: a proxy's page, say.
  }
  return failure(
    `The server answered ${status}${text.trim() === "" ? "" : `: ${text.trim().slice(0, 200)}`}.`
  )
}

/** A request whose answer is JSON: the parsed body, or the API's error as a failure. */
export const json = (session: Session, request: RawRequest) =>
  Effect.gen(function* () {
    const response = yield* send(session, request)
    const text = yield* readText(response.body)
    if (response.status >= 400) return yield* Effect.fail(errorOf(response.status, text, session))
    return yield* Effect.try({
      try: () => JSON.parse(text) as unknown,
      catch: () => failure(`The server's answer is not JSON: ${text.slice(0, 200)}`)
    })
  })
