/**
 * The top level of an OTLP/JSON body. An export request holds its resources in one
 * array (`resourceSpans` …); clients also send one resource bare (`{resource,
 * scopeSpans}`, the shape of an element of that array) or an array of them. The decoder
 * skips fields it does not know, so either would decode as an empty request and insert
 * nothing without a word: a bare resource is read as the request of that one resource,
 * and an object with none of the fields of either shape is refused.
 */
import { BadRequest } from "../../domain/Errors.js"
import { isObject } from "./OtlpJsonIds.js"

type Json = { [key: string]: unknown }

/** Each name as OTLP/JSON writes it and as the proto field, which the decoder also takes. */
const SHAPES = {
  traces: { request: ["resourceSpans", "resource_spans"], scope: ["scopeSpans", "scope_spans"] },
  logs: { request: ["resourceLogs", "resource_logs"], scope: ["scopeLogs", "scope_logs"] },
  metrics: {
    request: ["resourceMetrics", "resource_metrics"],
    scope: ["scopeMetrics", "scope_metrics"]
  }
} as const

type OtlpSignal = keyof typeof SHAPES

const hasAny = (object: Json, names: ReadonlyArray<string>) =>
  names.some((name) => Object.hasOwn(object, name))

const isResource = (signal: OtlpSignal, value: unknown): value is Json =>
  isObject(value) && hasAny(value, ["resource", "schemaUrl", "schema_url", ...SHAPES[signal].scope])

const refusal = (signal: OtlpSignal, detail: string) => {
  const { request, scope } = SHAPES[signal]
  return new BadRequest({
    message: `The body is not an OTLP/JSON ${signal} export request: ${detail}`,
    hint: `Send {"${request[0]}": [...]} (an export request), or one resource as {"resource": {...}, "${scope[0]}": [...]}.`
  })
}

/** `parsed` as an export request's object; throws the refusal when it is neither shape. */
export const exportRequestOf = (signal: OtlpSignal, parsed: unknown): Json => {
  const { request, scope } = SHAPES[signal]
  if (Array.isArray(parsed)) {
    if (parsed.length > 0 && parsed.every((item) => isResource(signal, item))) {
      return { [request[0]]: parsed }
    }
    throw refusal(signal, `the top level is an array, not an object or an array of resources.`)
  }
  if (!isObject(parsed)) throw refusal(signal, "the top level is not a JSON object.")
  if (hasAny(parsed, request)) return parsed
  if (isResource(signal, parsed)) return { [request[0]]: [parsed] }
  if (Object.keys(parsed).length === 0) return parsed
  throw refusal(signal, `it has neither "${request[0]}" nor a resource's "${scope[0]}".`)
}
