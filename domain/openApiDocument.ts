/**
 * Post-processing of the generated OpenAPI document. HttpApi declares its own
 * `HttpApiDecodeError` body for every 400; sluice never sends it (the error-shape
 * middleware turns it into `BadRequest`), so the document must not promise it.
 */
const decodeErrorRef = "#/components/schemas/HttpApiDecodeError"
const decodeErrorSchemas = ["HttpApiDecodeError", "Issue", "PropertyKey"]

const isRecord = (u: unknown): u is Record<string, unknown> =>
  typeof u === "object" && u !== null && !Array.isArray(u)

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

export const withoutDecodeError = (spec: Record<string, unknown>): Record<string, unknown> => {
  const pruned = prune(spec)
  if (!isRecord(pruned)) return spec
  const components = pruned["components"]
  if (isRecord(components) && isRecord(components["schemas"])) {
    for (const name of decodeErrorSchemas) delete components["schemas"][name]
  }
  return pruned
}
