/**
 * Fetches the file behind `?url=` as a byte stream: http/https only,
 * every hop's address checked at connect time (`SsrfConnector`), redirects followed
 * here with a hop limit, size and total time bounded.
 */
import { Effect, Stream } from "effect"
import type { Dispatcher } from "undici"
import { request } from "undici"
import { BadRequest } from "../../domain/Errors.js"
import type { Lookup } from "./SsrfConnector.js"
import { guardedAgent } from "./SsrfConnector.js"
import type { AllowList } from "../config/UrlAllowList.js"
import type { FetchError } from "./UrlFetchErrors.js"
import { badStatus, fetchFailure, tooLarge, tooManyRedirects, tooSlow } from "./UrlFetchErrors.js"

export interface UrlFetchLimits {
  readonly allow: AllowList
  readonly maxBytes: number
  readonly timeoutSeconds: number
  /** Default 5. */
  readonly maxRedirects?: number
  /** Name resolution; the system resolver unless a test gives another. */
  readonly lookup?: Lookup
}

export interface FetchedUrl {
  /** The URL after redirects. */
  readonly url: string
  readonly contentType: string | undefined
  readonly contentEncoding: string | undefined
  readonly contentLength: number | undefined
  /** Readable while the scope of `fetchUrl` is open; fails past the size or time limit. */
  readonly body: Stream.Stream<Uint8Array, FetchError>
}

const header = (headers: Dispatcher.ResponseData["headers"], name: string) => {
  const value = headers[name]
  return Array.isArray(value) ? value[0] : value
}

const parseUrl = (raw: string, hop: number): Effect.Effect<URL, BadRequest> => {
  const url = URL.canParse(raw) ? new URL(raw) : undefined
  if (url === undefined)
    return Effect.fail(
      new BadRequest({
        message:
          hop === 0
            ? `'${raw}' is not a valid URL.`
            : "The file's server redirected to an invalid URL.",
        hint: "Give an absolute http:// or https:// URL, URL-encoded in the url parameter."
      })
    )
  if (url.protocol !== "http:" && url.protocol !== "https:")
    return Effect.fail(
      new BadRequest({
        message: `URL ingest fetches http and https URLs only, not ${url.protocol.slice(0, -1)}.`,
        hint: "Host the file on an http(s) server."
      })
    )
  return Effect.succeed(url)
}

export const fetchUrl = Effect.fn("UrlFetch.fetch")(function* (
  raw: string,
  limits: UrlFetchLimits
) {
  const timeoutMs = limits.timeoutSeconds * 1000
  const maxRedirects = limits.maxRedirects ?? 5
  const deadline = new AbortController()
  const timer = setTimeout(() => deadline.abort(), timeoutMs)
  const agent = yield* Effect.acquireRelease(
    Effect.sync(() =>
      guardedAgent({ allow: limits.allow, lookup: limits.lookup, connectTimeoutMs: timeoutMs })
    ),
    (agent) =>
      Effect.promise(async () => {
        clearTimeout(timer)
        deadline.abort()
        await agent.destroy().catch(() => undefined)
      })
  )
  const timedOut = () => deadline.signal.aborted

  let url = yield* parseUrl(raw, 0)
  for (let hop = 0; ; hop++) {
    const current = url
    const response = yield* Effect.tryPromise({
      try: () =>
        request(current, {
          method: "GET",
          dispatcher: agent,
          signal: deadline.signal,
          headers: { "user-agent": "sluice-url-ingest" }
        }),
      catch: (error) =>
        timedOut() ? tooSlow(limits.timeoutSeconds) : fetchFailure(error, hop, current.hostname)
    })
    const location = header(response.headers, "location")
    if (response.statusCode >= 300 && response.statusCode < 400 && location !== undefined) {
      yield* Effect.promise(() => response.body.dump().catch(() => undefined))
      if (hop + 1 > maxRedirects) return yield* tooManyRedirects(maxRedirects)
      url = yield* parseUrl(new URL(location, current).toString(), hop + 1)
      continue
    }
    if (response.statusCode < 200 || response.statusCode >= 300) {
      yield* Effect.promise(() => response.body.dump().catch(() => undefined))
      return yield* badStatus(response.statusCode)
    }
    const length = header(response.headers, "content-length")
    const contentLength = length !== undefined && /^\d+$/.test(length) ? Number(length) : undefined
    if (contentLength !== undefined && contentLength > limits.maxBytes) {
      response.body.destroy()
      return yield* tooLarge(limits.maxBytes)
    }
    return {
      url: current.toString(),
      contentType: header(response.headers, "content-type"),
      contentEncoding: header(response.headers, "content-encoding"),
      contentLength,
      body: boundedBody(response.body, limits, timedOut, current.hostname)
    } satisfies FetchedUrl
  }
})

const boundedBody = (
  body: Dispatcher.ResponseData["body"],
  limits: UrlFetchLimits,
  timedOut: () => boolean,
  host: string
): Stream.Stream<Uint8Array, FetchError> => {
  let seen = 0
  return Stream.fromAsyncIterable<Uint8Array, FetchError>(body, (error) =>
    timedOut() ? tooSlow(limits.timeoutSeconds) : fetchFailure(error, 0, host)
  ).pipe(
    Stream.mapEffect((chunk) => {
      seen += chunk.byteLength
      return seen > limits.maxBytes ? Effect.fail(tooLarge(limits.maxBytes)) : Effect.succeed(chunk)
    }),
    Stream.ensuring(Effect.sync(() => body.destroy()))
  )
}
