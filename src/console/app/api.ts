/**
 * The console's only way to the service: the typed client derived from the contract,
 * over the browser's fetch, every request saying `x-service-client: ui` and the
 * console's version. The session token lives in this tab's sessionStorage (this origin
 * only, gone with the tab) and travels only in the Authorization header.
 */
import { FetchHttpClient, HttpClient, HttpClientRequest } from "@effect/platform"
import type { HttpClientResponse } from "@effect/platform"
import { Cause, Effect, Exit, Layer, ManagedRuntime, Option } from "effect"
import { SluiceApi } from "../../../domain/Api.js"
import { makeSluiceClient } from "../../../domain/Client.js"
import { errorBody, errorStatus } from "../../../domain/Errors.js"
import type { ApiError } from "../../../domain/Errors.js"
import type { SluiceClient } from "../../../domain/Client.js"

declare const SLUICE_CONSOLE_VERSION: string
export const VERSION = SLUICE_CONSOLE_VERSION

const TOKEN_KEY = "sluice.session"

export const session = {
  token: (): string | null => sessionStorage.getItem(TOKEN_KEY),
  set: (token: string, email: string) => {
    sessionStorage.setItem(TOKEN_KEY, token)
    // The email is no secret: kept so a sign-in after an ended session is one field.
    localStorage.setItem("sluice.email", email)
  },
  email: (): string => localStorage.getItem("sluice.email") ?? "",
  clear: () => sessionStorage.removeItem(TOKEN_KEY)
}

/** An API error as the service words it, or a connection that failed. */
export class ApiFailure extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly hint: string,
    readonly status: number | null
  ) {
    super(message)
  }
  get offline() {
    return this.code === "offline"
  }
}

type Listener = (failure: ApiFailure) => void
const listeners = new Set<Listener>()
/** Told of every 401 (back to sign-in) and every lost connection (the retry banner). */
export const onFailure = (listener: Listener) => {
  listeners.add(listener)
  return () => void listeners.delete(listener)
}

const UiHttpClient = Layer.effect(
  HttpClient.HttpClient,
  Effect.map(HttpClient.HttpClient, (client) =>
    client.pipe(
      HttpClient.mapRequest((request) => {
        const withClient = HttpClientRequest.setHeaders(request, {
          "x-service-client": "ui",
          "x-service-client-version": VERSION
        })
        const token = session.token()
        return token === null ? withClient : HttpClientRequest.bearerToken(withClient, token)
      })
    )
  )
).pipe(Layer.provide(FetchHttpClient.layer))

const runtime = ManagedRuntime.make(UiHttpClient)
// Made on the first call, not when the page's script runs: building every endpoint's
// client is work the first render need not wait for.
let client: Promise<SluiceClient> | null = null
const typedClient = () =>
  (client ??= runtime.runPromise(makeSluiceClient({ baseUrl: location.origin })))

const declaredError = (error: object, tag: unknown): ApiError | null =>
  typeof tag === "string" && Object.hasOwn(errorStatus, tag) ? (error as ApiError) : null

/**
 * Whatever a call or a view's own code threw, as the failure the views show. An error the
 * endpoint declares comes decoded into its class: its wire code and status are the ones
 * the service answered with.
 */
export const failureOf = (error: unknown): ApiFailure => {
  if (error instanceof ApiFailure) return error
  if (typeof error === "object" && error !== null) {
    const record = error as { _tag?: unknown; message?: unknown; hint?: unknown }
    if (record._tag === "RequestError")
      return new ApiFailure("offline", "The service could not be reached.", "", null)
    const declared = declaredError(error, record._tag)
    if (declared !== null) {
      const body = errorBody(declared)
      return new ApiFailure(body.error, body.message, body.hint, errorStatus[declared._tag])
    }
    if (typeof record.message === "string" && typeof record._tag === "string")
      return new ApiFailure(
        record._tag,
        record.message,
        typeof record.hint === "string" ? record.hint : "",
        null
      )
  }
  return new ApiFailure(
    "internal",
    error instanceof Error ? error.message : String(error),
    "",
    null
  )
}

// An undeclared status (a 500 with its trace id, say) still has the `{error, message, hint}` body.
const fromResponse = (response: HttpClientResponse.HttpClientResponse) =>
  Effect.flatMap(
    Effect.orElseSucceed(response.json, () => null),
    (body) => {
      const b = (body ?? {}) as { error?: unknown; message?: unknown; hint?: unknown }
      return Effect.fail(
        new ApiFailure(
          typeof b.error === "string" ? b.error : `http_${response.status}`,
          typeof b.message === "string" ? b.message : `The service answered ${response.status}.`,
          typeof b.hint === "string" ? b.hint : "",
          response.status
        )
      )
    }
  )

const settle = async <A>(exit: Exit.Exit<A, unknown>): Promise<A> => {
  if (Exit.isSuccess(exit)) return exit.value
  if (Cause.isInterruptedOnly(exit.cause)) throw new ApiFailure("cancelled", "Cancelled.", "", null)
  const failure = failureOf(
    Option.getOrElse(Cause.failureOption(exit.cause), () => Cause.squash(exit.cause))
  )
  if (failure.status === 401 || failure.offline) for (const listener of listeners) listener(failure)
  throw failure
}

/** One call of the typed client; rejects with an `ApiFailure`. */
export const call = async <A, E>(
  f: (client: SluiceClient) => Effect.Effect<A, E, never>,
  signal?: AbortSignal
): Promise<A> => {
  const typed = await typedClient()
  const effect = Effect.catchIf(
    f(typed),
    (
      error
    ): error is E & { _tag: "ResponseError"; response: HttpClientResponse.HttpClientResponse } =>
      typeof error === "object" &&
      error !== null &&
      (error as { _tag?: unknown })._tag === "ResponseError",
    (error) => fromResponse(error.response)
  )
  return settle(await runtime.runPromiseExit(effect, signal === undefined ? {} : { signal }))
}

/** The path of an endpoint of the contract: the console calls nothing else. */
export const endpointPath = (group: string, endpoint: string): string => {
  const found = (
    SluiceApi.groups as Record<string, { endpoints: Record<string, { path: string }> }>
  )[group]?.endpoints[endpoint]
  if (found === undefined) throw new Error(`no endpoint ${group}.${endpoint} in the contract`)
  return found.path
}

export interface StreamOptions {
  readonly urlParams: Record<string, string>
  readonly path?: Record<string, string>
  readonly headers?: Record<string, string>
  readonly body?: unknown
  readonly onResponse?: (headers: Readonly<Record<string, string>>) => void
  readonly onChunk: (chunk: Uint8Array) => void
  readonly signal?: AbortSignal
}

/**
 * A contract endpoint whose answer is read as it arrives (a query's raw formats, a URL
 * load's progress lines), with the console's headers. Read by the browser's fetch and its
 * stream reader, chunk by chunk as the bytes come: nothing between them and `onChunk`.
 */
export const streamEndpoint = async (group: string, endpoint: string, options: StreamOptions) => {
  const request = contractRequest(group, endpoint, options)
  let response: Response
  try {
    response = await fetch(request.url, {
      method: "POST",
      headers: request.headers,
      ...(request.body === undefined ? {} : { body: request.body }),
      ...(options.signal === undefined ? {} : { signal: options.signal })
    })
  } catch {
    throw offlineOr(options.signal)
  }
  if (response.status >= 400) throw failureOfReply(response.status, await response.text())
  const headers: Record<string, string> = {}
  response.headers.forEach((value, key) => (headers[key] = value))
  options.onResponse?.(headers)
  if (response.body === null) return
  const reader = response.body.getReader()
  try {
    for (;;) {
      const { done, value } = await reader.read()
      if (done) return
      options.onChunk(value)
    }
  } catch {
    throw offlineOr(options.signal)
  }
}

const offlineOr = (signal: AbortSignal | undefined) => {
  if (signal?.aborted === true) return new ApiFailure("cancelled", "Cancelled.", "", null)
  const failure = new ApiFailure("offline", "The service could not be reached.", "", null)
  for (const listener of listeners) listener(failure)
  return failure
}

type Body = { error?: unknown; message?: unknown; hint?: unknown } | null
const parsedBody = (text: string): Body => {
  try {
    return JSON.parse(text) as Body
  } catch {
    return null
  }
}

const fillPath = (path: string, params: Record<string, string>) =>
  path.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(params[name] ?? ""))

/** A request's headers as every request of the console carries them. */
const consoleHeaders = (extra: Record<string, string>) => {
  const headers: Record<string, string> = {
    ...extra,
    "x-service-client": "ui",
    "x-service-client-version": VERSION
  }
  const token = session.token()
  if (token !== null) headers.authorization = `Bearer ${token}`
  return headers
}

/** A POST to a contract endpoint, as plain data (a service worker can be handed it). */
export interface ContractRequest {
  readonly url: string
  readonly headers: Record<string, string>
  /** JSON; absent for an endpoint whose body is optional. */
  readonly body?: string
}

/**
 * A contract endpoint's request for a caller that reads the answer as a byte stream
 * itself (an export piped into a file): the path from the contract, the console's headers.
 */
export const contractRequest = (
  group: string,
  endpoint: string,
  options: {
    readonly urlParams: Record<string, string>
    readonly path?: Record<string, string>
    readonly headers?: Record<string, string>
    readonly body?: unknown
  }
): ContractRequest => {
  const url = new URL(fillPath(endpointPath(group, endpoint), options.path ?? {}), location.origin)
  for (const [key, value] of Object.entries(options.urlParams)) url.searchParams.set(key, value)
  return options.body === undefined
    ? { url: url.href, headers: consoleHeaders(options.headers ?? {}) }
    : {
        url: url.href,
        headers: consoleHeaders({ ...options.headers, "content-type": "application/json" }),
        body: JSON.stringify(options.body)
      }
}

/** The API's error from a status and a body read as text; a 401 is told to the listeners. */
export const failureOfReply = (status: number, text: string) => {
  const body = parsedBody(text)
  const failure = new ApiFailure(
    typeof body?.error === "string" ? body.error : `http_${status}`,
    typeof body?.message === "string" ? body.message : `The service answered ${status}.`,
    typeof body?.hint === "string" ? body.hint : "",
    status
  )
  if (status === 401) for (const listener of listeners) listener(failure)
  return failure
}

/**
 * A file sent as the body of a contract endpoint (a table's insert), with its upload's
 * progress: fetch does not report one, so this request alone goes by XMLHttpRequest,
 * with the same headers as every other.
 */
export const uploadToEndpoint = (
  group: string,
  endpoint: string,
  options: {
    readonly path: Record<string, string>
    readonly urlParams: Record<string, string>
    readonly body: Blob
    readonly headers: Record<string, string>
    readonly onProgress: (sent: number, total: number) => void
  }
): Promise<unknown> =>
  new Promise((resolve, reject) => {
    const url = new URL(fillPath(endpointPath(group, endpoint), options.path), location.origin)
    for (const [key, value] of Object.entries(options.urlParams)) url.searchParams.set(key, value)
    const xhr = new XMLHttpRequest()
    xhr.open("POST", url)
    for (const [key, value] of Object.entries(consoleHeaders(options.headers)))
      xhr.setRequestHeader(key, value)
    xhr.upload.onprogress = (event) => options.onProgress(event.loaded, event.total)
    xhr.onerror = () => {
      const failure = new ApiFailure("offline", "The service could not be reached.", "", null)
      for (const listener of listeners) listener(failure)
      reject(failure)
    }
    xhr.onload = () =>
      xhr.status < 400
        ? resolve(parsedBody(xhr.responseText))
        : reject(failureOfReply(xhr.status, xhr.responseText))
    xhr.send(options.body)
  })
