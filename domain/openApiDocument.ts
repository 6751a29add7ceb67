/**
 * Post-processing of the generated OpenAPI document. Each endpoint declares the errors its
 * handler returns; the API-wide error-shape middleware (src/http/ErrorShape.ts) answers a
 * few more by itself, with the same `{error, message, hint}` body, and the document adds
 * them only where they can happen:
 * - 400 where there are parameters or a body to decode. HttpApi declares its own
 *   `HttpApiDecodeError` body for that 400 on every endpoint; sluice never sends it, so
 *   it becomes the error body, or goes when the endpoint decodes nothing.
 * - 413 and 415 where HttpApi reads a JSON body (raw bodies are the handler's, declared).
 * - 500 everywhere: a defect is answered with a trace id.
 * An unknown route's 404 belongs to no endpoint, and an engine lost mid-request (503) only
 * reaches the endpoints that use an engine, which declare `Unavailable` already.
 */
import { JSONSchema } from "effect"
import { ErrorBody } from "./Errors.js"

const decodeErrorRef = "#/components/schemas/HttpApiDecodeError"
const decodeErrorSchemas = ["HttpApiDecodeError", "Issue", "PropertyKey"]
const errorBodyName = "Error"

const isRecord = (u: unknown): u is Record<string, unknown> =>
  typeof u === "object" && u !== null && !Array.isArray(u)

const errorResponse = (description: string) => ({
  description,
  content: {
    "application/json": { schema: { $ref: `#/components/schemas/${errorBodyName}` } }
  }
})

const jsonSchemaOf = (response: unknown): unknown =>
  isRecord(response) && isRecord(response["content"])
    ? (response["content"]["application/json"] as { schema?: unknown } | undefined)?.schema
    : undefined

const addMiddlewareResponses = (operation: Record<string, unknown>) => {
  const responses = operation["responses"]
  if (!isRecord(responses)) return
  const badRequest = responses["400"]
  const schema = jsonSchemaOf(badRequest)
  if (isRecord(schema) && schema["$ref"] === decodeErrorRef && isRecord(badRequest)) {
    const decodes =
      operation["requestBody"] !== undefined ||
      (Array.isArray(operation["parameters"]) && operation["parameters"].length > 0)
    if (decodes) responses["400"] = errorResponse(String(badRequest["description"]))
    else delete responses["400"]
  }
  if (operation["requestBody"] !== undefined) {
    responses["413"] ??= errorResponse("PayloadTooLarge")
    responses["415"] ??= errorResponse("UnsupportedMediaType")
  }
  responses["500"] ??= errorResponse("Internal")
}

// Where the decode error is one of several 400 bodies, the others stay.
const prune = (node: unknown): unknown => {
  if (Array.isArray(node)) return node.map(prune)
  if (!isRecord(node)) return node
  const out: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(node)) out[key] = prune(value)
  const anyOf = out["anyOf"]
  if (Array.isArray(anyOf)) {
    const kept = anyOf.filter((s) => !(isRecord(s) && s["$ref"] === decodeErrorRef))
    if (kept.length === 1 && isRecord(kept[0])) {
      delete out["anyOf"]
      return { ...out, ...kept[0] }
    }
    out["anyOf"] = kept
  }
  return out
}

export const withMiddlewareResponses = (spec: Record<string, unknown>): Record<string, unknown> => {
  const pruned = prune(spec)
  if (!isRecord(pruned)) return spec
  if (isRecord(pruned["paths"])) {
    for (const item of Object.values(pruned["paths"])) {
      if (isRecord(item)) Object.values(item).filter(isRecord).forEach(addMiddlewareResponses)
    }
  }
  const components = pruned["components"]
  if (isRecord(components) && isRecord(components["schemas"])) {
    for (const name of decodeErrorSchemas) delete components["schemas"][name]
    components["schemas"][errorBodyName] = JSONSchema.make(ErrorBody).$defs?.[errorBodyName]
  }
  return pruned
}
