/**
 * The parameters of a Prometheus API call: the URL's, plus a form body's for POST, as
 * Prometheus merges them (`match[]` may repeat). Parsing of times and durations answers
 * Prometheus's own `bad_data` messages.
 */
import type { HttpServerRequest } from "@effect/platform"
import { Effect, Option } from "effect"
import { PromQLError } from "../../../domain/PromQL.js"
import { parseStep, parseTime } from "../promql/parser/Durations.js"

export interface ApiParams {
  readonly get: (name: string) => string | undefined
  readonly all: (name: string) => ReadonlyArray<string>
}

const fromSearch = (search: URLSearchParams): ApiParams => ({
  get: (name) => search.get(name) ?? undefined,
  all: (name) => search.getAll(name)
})

const searchOf = (request: HttpServerRequest.HttpServerRequest) =>
  new URL(request.url, "http://localhost").searchParams

export const urlParams = (request: HttpServerRequest.HttpServerRequest) =>
  fromSearch(searchOf(request))

/** URL and form parameters together; an unreadable form is `bad_data`. */
export const formParams = (request: HttpServerRequest.HttpServerRequest) =>
  Effect.map(
    request.text.pipe(
      Effect.mapError(
        () => new PromQLError({ errorType: "bad_data", message: "error parsing form values" })
      )
    ),
    (body) => {
      const merged = searchOf(request)
      for (const [name, value] of new URLSearchParams(body)) merged.append(name, value)
      return fromSearch(merged)
    }
  )

const invalid = (name: string, value: string, what: string, context = "") =>
  new PromQLError({
    errorType: "bad_data",
    parameter: name,
    message: `${context}cannot parse "${value}" to a valid ${what}`
  })

export const timeParam = (params: ApiParams, name: string, fallback: Option.Option<number>) => {
  const text = params.get(name)
  if (text === undefined || text === "")
    return Option.match(fallback, {
      onNone: () => Effect.succeed(undefined),
      onSome: (value) => Effect.succeed(value)
    })
  const ms = parseTime(text)
  // Prometheus's optional times say more than its required ones (`parseTimeParam`).
  return Number.isFinite(ms)
    ? Effect.succeed(ms)
    : Effect.fail(invalid(name, text, "timestamp", `Invalid time value for '${name}': `))
}

export const requiredTime = (params: ApiParams, name: string) => {
  const text = params.get(name) ?? ""
  const ms = parseTime(text)
  return Number.isFinite(ms) ? Effect.succeed(ms) : Effect.fail(invalid(name, text, "timestamp"))
}

/** A duration in ms: Prometheus's units (`1m30s`) or seconds; a negative number of seconds is kept. */
const duration = (name: string, text: string) => {
  const ms = parseStep(text)
  return Number.isFinite(ms) ? Effect.succeed(ms) : Effect.fail(invalid(name, text, "duration"))
}

export const stepParam = (params: ApiParams) => duration("step", params.get("step") ?? "")

/** A query's own `timeout` in ms, when it has one. */
export const timeoutParam = (params: ApiParams) => {
  const text = params.get("timeout") ?? ""
  return text === "" ? Effect.succeed(undefined) : duration("timeout", text)
}

/** The query's text; none is the empty query, which the parser refuses as Prometheus's does. */
export const queryParam = (params: ApiParams) => params.get("query") ?? ""

/**
 * Prometheus 3's `limit` on series, labels and label values: at most that many; absent or
 * 0, no limit. Its errors are Prometheus's words.
 */
export const limitParam = (params: ApiParams) => {
  const text = params.get("limit") ?? ""
  if (text === "") return Effect.succeed(Infinity)
  const limit = /^[+-]?\d+$/.test(text) ? Number(text) : NaN
  if (Number.isNaN(limit))
    return Effect.fail(
      new PromQLError({
        errorType: "bad_data",
        message: `strconv.Atoi: parsing ${JSON.stringify(text)}: invalid syntax`
      })
    )
  if (limit < 0)
    return Effect.fail(
      new PromQLError({ errorType: "bad_data", message: "limit must be non-negative" })
    )
  return Effect.succeed(limit === 0 ? Infinity : limit)
}
