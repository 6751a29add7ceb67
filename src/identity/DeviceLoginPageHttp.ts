/**
 * The approval page over HTTP: its responses (HTML with headers that keep it from being
 * framed or scripted), its forms as browsers post them, and its address.
 */
import { HttpServerResponse, UrlParams } from "@effect/platform"
import type { HttpServerRequest } from "@effect/platform"
import { Effect, Option } from "effect"
import { mediaType } from "../body/ContentType.js"
import { codePage } from "./DeviceLoginPage.js"

export const PAGE_PATH = "/v1/auth/cli/device"
const HOST = /^[A-Za-z0-9.-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/

/**
 * The page's address: under `SLUICE_PUBLIC_URL` when it is set. Otherwise the host the
 * request named (with `SLUICE_TRUST_PROXY`, the one the proxy forwarded), else `fallback`.
 */
export const pageUrl = (
  request: HttpServerRequest.HttpServerRequest,
  settings: { readonly publicUrl: Option.Option<string>; readonly trustProxy: boolean },
  fallback: string
) => {
  if (Option.isSome(settings.publicUrl)) return `${settings.publicUrl.value}${PAGE_PATH}`
  const forwarded = settings.trustProxy ? request.headers["x-forwarded-host"] : undefined
  const named = forwarded ?? request.headers["host"] ?? ""
  const authority = HOST.test(named) ? named : fallback
  const scheme =
    settings.trustProxy && request.headers["x-forwarded-proto"] === "https" ? "https" : "http"
  return `${scheme}://${authority}${PAGE_PATH}`
}

// No script, no framing (the approve button must not be clickjacked), forms post here
// only, and the code in the address does not leak to other sites.
const pageHeaders = {
  "content-security-policy":
    "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  "x-frame-options": "DENY",
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "cache-control": "no-store"
}

export const page = (html: string, status = 200) =>
  HttpServerResponse.text(html, {
    status,
    contentType: "text/html; charset=utf-8",
    headers: pageHeaders
  })

/** A page answering a throttled request, with the `retry-after` a 429 carries. */
export const slowedDown = (
  response: HttpServerResponse.HttpServerResponse,
  error: { readonly retryAfterSeconds: number }
) => HttpServerResponse.setHeader(response, "retry-after", String(error.retryAfterSeconds))

export const present = (value: string | undefined) =>
  value === undefined || value.trim() === "" ? undefined : value.trim()

const FORM = "application/x-www-form-urlencoded"

export type Field = (name: string) => string | undefined

/**
 * A form post's fields, as a browser sends them (the first of a repeated field), or
 * `None` for any other content type. The platform reads the body (within the server's
 * limit; a body over it is the 413 of the error shape).
 */
export const formOf = (request: HttpServerRequest.HttpServerRequest) =>
  mediaType(request.headers["content-type"]) !== FORM
    ? Effect.succeed(Option.none())
    : Effect.map(Effect.orDie(request.urlParamsBody), (params) =>
        Option.some<Field>((name) => Option.getOrUndefined(UrlParams.getFirst(params, name)))
      )

export const notAForm = page(
  codePage(`This form is sent as ${FORM}, as a browser sends it: open the login link again.`),
  415
)
