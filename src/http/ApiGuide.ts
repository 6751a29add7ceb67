/**
 * `GET /v1/docs`: a plain-text guide made from the OpenAPI document of the contract, the
 * same one `/v1/openapi.json` serves, so the two never disagree. Each endpoint gets its
 * method and path, description, credential, parameters, body fields, statuses and a
 * `curl` example whose body is made from the body's schema.
 */
import type { OpenApi } from "@effect/platform"

type Json = Record<string, unknown>

const isRecord = (u: unknown): u is Json => typeof u === "object" && u !== null && !Array.isArray(u)
const stringOf = (u: unknown) => (typeof u === "string" ? u : undefined)
const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"] as const

/** A schema with its `$ref`s resolved against the document's components. */
const resolver = (spec: OpenApi.OpenAPISpec) => {
  const schemas: unknown = spec.components.schemas
  return (schema: unknown): Json => {
    let current = schema
    for (let hops = 0; hops < 10 && isRecord(current); hops++) {
      const ref = stringOf(current["$ref"])
      if (ref === undefined) return current
      const name = ref.replace("#/components/schemas/", "")
      current = isRecord(schemas) ? schemas[name] : undefined
    }
    return isRecord(current) ? current : {}
  }
}

type Resolve = ReturnType<typeof resolver>

/** The first alternative of a union that is not `null`. */
const mainAlternative = (schema: Json, resolve: Resolve): Json => {
  const options = schema["anyOf"] ?? schema["oneOf"]
  if (!Array.isArray(options)) return schema
  const chosen = options.map(resolve).find((o) => o["type"] !== "null")
  return chosen === undefined ? schema : mainAlternative(chosen, resolve)
}

const typeName = (raw: unknown, resolve: Resolve): string => {
  const schema = mainAlternative(resolve(raw), resolve)
  if (Array.isArray(schema["enum"])) return schema["enum"].map((v) => JSON.stringify(v)).join(" | ")
  if ("const" in schema) return JSON.stringify(schema["const"])
  const type = stringOf(schema["type"])
  if (type === "array") return `array of ${typeName(schema["items"], resolve)}`
  return type ?? "any"
}

/** An example value for a schema: its enum's first value, else a placeholder of its type. */
const example = (raw: unknown, resolve: Resolve, depth = 0): unknown => {
  const schema = mainAlternative(resolve(raw), resolve)
  if (depth > 6) return null
  if (Array.isArray(schema["enum"]) && schema["enum"].length > 0) return schema["enum"][0]
  if ("const" in schema) return schema["const"]
  if (Array.isArray(schema["allOf"])) {
    return Object.assign({}, ...schema["allOf"].map((s) => example(s, resolve, depth + 1)))
  }
  switch (schema["type"]) {
    case "string":
      return stringOf(schema["format"]) === "uuid" ? "00000000-0000-0000-0000-000000000000" : "…"
    case "integer":
    case "number":
      return typeof schema["minimum"] === "number" ? schema["minimum"] : 0
    case "boolean":
      return false
    case "array":
      return [example(schema["items"], resolve, depth + 1)]
    default: {
      const properties = isRecord(schema["properties"]) ? schema["properties"] : {}
      const required = Array.isArray(schema["required"]) ? schema["required"] : []
      return Object.fromEntries(
        Object.entries(properties)
          .filter(([name]) => required.includes(name))
          .map(([name, inner]) => [name, example(inner, resolve, depth + 1)])
      )
    }
  }
}

const fieldLines = (raw: unknown, resolve: Resolve): Array<string> => {
  const schema = mainAlternative(resolve(raw), resolve)
  const properties = isRecord(schema["properties"]) ? schema["properties"] : {}
  const required = Array.isArray(schema["required"]) ? schema["required"] : []
  return Object.entries(properties).map(([name, inner]) => {
    const description = stringOf(resolve(inner)["description"])
    const kind = `${typeName(inner, resolve)}${required.includes(name) ? ", required" : ""}`
    return `    ${name}: ${kind}${description === undefined ? "" : ` — ${description}`}`
  })
}

const operationText = (
  method: string,
  path: string,
  operation: OpenApi.OpenAPISpecOperation,
  resolve: Resolve
): string => {
  const lines = [`${method.toUpperCase()} ${path}`]
  if (operation.description !== undefined) lines.push(`  ${operation.description}`)
  const secured = (operation.security ?? []).length > 0
  lines.push(`  Credential: ${secured ? "Authorization: Bearer <token>" : "none"}`)
  const parameters = operation.parameters
  if (parameters.length > 0) {
    lines.push("  Parameters:")
    for (const p of parameters) {
      const description = p.description === undefined ? "" : ` — ${p.description}`
      lines.push(
        `    ${p.name} (${p.in}): ${typeName(p.schema, resolve)}${p.required ? ", required" : ""}${description}`
      )
    }
  }
  const content = operation.requestBody?.content ?? {}
  const [contentType, media] = Object.entries(content)[0] ?? []
  if (contentType !== undefined) {
    lines.push(`  Body (${contentType}):`)
    lines.push(...fieldLines(media?.schema, resolve))
  }
  lines.push(`  Responses: ${Object.keys(operation.responses).join(", ")}`)
  const query = parameters
    .filter((p) => p.in === "query" && p.required)
    .map((p) => `${p.name}=<${p.name}>`)
    .join("&")
  const curl = [`curl -X ${method.toUpperCase()} "$SLUICE_URL${path}${query ? `?${query}` : ""}"`]
  if (secured) curl.push(`-H "authorization: Bearer $SLUICE_TOKEN"`)
  if (contentType === "application/json") {
    curl.push(`-H 'content-type: application/json'`)
    curl.push(`-d '${JSON.stringify(example(media?.schema, resolve))}'`)
  } else if (contentType === "application/x-www-form-urlencoded") {
    const fields = resolve(media?.schema)["properties"]
    for (const name of Object.keys(isRecord(fields) ? fields : {})) {
      curl.push(`--data-urlencode '${name}=…'`)
    }
  } else if (contentType !== undefined) {
    curl.push(`-H 'content-type: ${contentType}' --data-binary @body`)
  }
  lines.push(`  Example: ${curl.join(" ")}`)
  return lines.join("\n")
}

/** The guide for an OpenAPI document: groups in the document's order, endpoints in theirs. */
export const apiGuide = (spec: OpenApi.OpenAPISpec): string => {
  const resolve = resolver(spec)
  const byTag = new Map<string, Array<string>>(spec.tags.map((t) => [t.name, []]))
  for (const [path, item] of Object.entries(spec.paths)) {
    for (const method of METHODS) {
      const operation = item[method]
      if (operation === undefined) continue
      const tag = operation.tags[0] ?? "other"
      const texts = byTag.get(tag) ?? []
      texts.push(operationText(method, path, operation, resolve))
      byTag.set(tag, texts)
    }
  }
  const descriptions = new Map(spec.tags.map((t) => [t.name, t.description]))
  const sections = [...byTag].map(
    ([tag, texts]) => `== ${descriptions.get(tag) ?? tag} (${tag}) ==\n\n${texts.join("\n\n")}`
  )
  return [
    `${spec.info.title} API ${spec.info.version}`,
    spec.info.description ?? "",
    [
      "Set SLUICE_URL to the service's address and SLUICE_TOKEN to a credential: an API key",
      "(rt_…), a session token from POST /v1/auth/login or the command-line login, or an",
      "OAuth access token. Every error is JSON {error, message, hint}. The same contract,",
      "machine-readable: GET /v1/openapi.json."
    ].join("\n"),
    ...sections
  ].join("\n\n")
}
