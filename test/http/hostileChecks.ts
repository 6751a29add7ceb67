/**
 * What every reply of the hostile-input suite must be, by hand from the error contract (and
 * the collector's and Prometheus's protocol shapes): anything but a 5xx; an error body in the
 * endpoint's documented shape; no stack trace, server path or secret.
 */
import { Schema } from "effect"
import type { Outcome, Sent } from "../support/hostileClient.js"

export interface Operation {
  readonly method: string
  readonly template: string
  /** Documented as answering an HTML page: its refusals are pages too, for a browser. */
  readonly page: boolean
}

const text = Schema.String
/** The error contract: exactly these three strings. */
const ErrorShape = Schema.Struct({ error: text, message: text, hint: text })
const isErrorShape = Schema.is(ErrorShape, { onExcessProperty: "error" })
/** A delivery stream's `{requestId, timestamp, errorMessage}` beside the error fields. */
const DeliveryStreamError = Schema.Struct({
  requestId: text,
  timestamp: Schema.Number,
  errorMessage: text,
  error: text,
  message: text,
  hint: text
})
/** The HTTP Event Collector protocol's `{text, code}`. */
const HecError = Schema.Struct({ text, code: Schema.Int })
/** Prometheus's `{status: "error", errorType, error}`. */
const PrometheusError = Schema.Struct({
  status: Schema.Literal("error"),
  errorType: text,
  error: text
})

const shapesOf = ({ template }: Operation, sent: Sent): ReadonlyArray<(u: unknown) => boolean> => {
  if (template.startsWith("/services/collector")) return [Schema.is(HecError), isErrorShape]
  if (template.startsWith("/metrics-compat/")) return [Schema.is(PrometheusError), isErrorShape]
  if (/[?&]transform=(delivery-stream|firehose)(&|$)/.test(sent.path)) {
    return [Schema.is(DeliveryStreamError), isErrorShape]
  }
  return [isErrorShape]
}

const STACK = /\bat [^\s]+ \(?[^\s]*\.(ts|js|mjs):\d+/
// The data dir is among the leaks checked; a path the request itself named may be echoed.
const SERVER_PATHS = /\/work\/|\/home\/|node_modules|\.(ts|js):\d+/

const parse = (body: string): unknown => {
  try {
    return JSON.parse(body)
  } catch {
    return undefined
  }
}

/** Why `outcome` breaks the rules, or `undefined` when it keeps them. */
export const checkReply = (
  operation: Operation,
  sent: Sent,
  outcome: Outcome,
  leaks: ReadonlyArray<string>
): string | undefined => {
  if (outcome._tag === "Dropped") return `connection dropped: ${outcome.reason}`
  const { status, contentType, text: body } = outcome
  const leaked = leaks.find((secret) => body.includes(secret))
  if (leaked !== undefined && status >= 400) return `${status} reveals a secret or the data dir`
  if (STACK.test(body)) return `${status} carries a stack trace: ${body.slice(0, 200)}`
  if (status < 400) return undefined
  if (status >= 500) return `${status}: ${body.slice(0, 300)}`
  if (SERVER_PATHS.test(body)) return `${status} names a server path: ${body.slice(0, 200)}`
  if (operation.page && contentType.includes("text/html")) return undefined
  if (!contentType.includes("application/json")) return `${status} answered ${contentType}`
  const json = parse(body)
  const shapes = shapesOf(operation, sent)
  const fits = shapes.some((fitsShape) => fitsShape(json))
  if (!fits) return `${status} body is not the error shape: ${body.slice(0, 200)}`
  return undefined
}
