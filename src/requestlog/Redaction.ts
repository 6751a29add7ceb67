/**
 * Removes secrets from what the request log keeps: values of secret-looking fields in
 * JSON, NDJSON, form and query strings, and anything shaped like an API key (`rt_…`) or a
 * session token (a JWT, `eyJ….….…`) in any field at all (`redactText`).
 */
const SECRET_NAME =
  /pass(word|wd|phrase)?|secret|token|api[-_]?key|authorization|credential|signature|^sig$/i
const API_KEY = /rt_[A-Za-z0-9_-]{8,}/g
// A JWT's header is base64url JSON, so it starts `eyJ` (`{"`); the signature may be empty.
const SESSION_TOKEN = /eyJ[A-Za-z0-9_-]*\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*/g
export const REDACTED = "[REDACTED]"

const redactString = (value: string) =>
  value.replace(API_KEY, `rt_${REDACTED}`).replace(SESSION_TOKEN, REDACTED)

const decoded = (value: string) => {
  try {
    return decodeURIComponent(value)
  } catch {
    return value
  }
}

/**
 * Any text the log keeps (a path, a header, an error message, a table name): keys and
 * session tokens replaced, percent-encoded ones too (the router decodes a path before a
 * handler sees it, so `%72t_…` is a key as well). Text holding none is kept as sent.
 */
export const redactText = (value: string): string => {
  const plain = decoded(value)
  const kept = redactString(plain)
  return kept === plain ? value : kept
}

const redactValue = (value: unknown, key: string | undefined): unknown => {
  if (key !== undefined && SECRET_NAME.test(key) && value !== null && typeof value !== "object") {
    return REDACTED
  }
  if (typeof value === "string") return redactString(value)
  if (Array.isArray(value)) return value.map((item) => redactValue(item, undefined))
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value).map(([name, inner]) => [redactString(name), redactValue(inner, name)])
    )
  }
  return value
}

const redactJson = (text: string): string | undefined => {
  try {
    return JSON.stringify(redactValue(JSON.parse(text), undefined))
  } catch {
    return undefined
  }
}

// For text that is not JSON: `"password": "…"`, `password=…` and `rt_…` anywhere.
const redactLoose = (text: string) =>
  redactText(
    text
      .replace(
        /("[^"]*(?:pass|secret|token|api[-_]?key|authorization|credential)[^"]*"\s*:\s*)"(?:[^"\\]|\\.)*"/gi,
        `$1"${REDACTED}"`
      )
      .replace(
        /(\b[\w.-]*(?:pass|secret|token|api[-_]?key|authorization|credential)[\w.-]*=)[^&\s]*/gi,
        `$1${REDACTED}`
      )
  )

/** A request body as the log keeps it. */
export const redactBody = (text: string): string => {
  const whole = redactJson(text)
  if (whole !== undefined) return whole
  const lines = text.split("\n")
  if (lines.length > 1) {
    const each = lines.map((line) => (line.trim() === "" ? line : redactJson(line)))
    if (each.every((line) => line !== undefined)) return each.join("\n")
  }
  return redactLoose(text)
}

// A URL inside a value (e.g. `?url=` of URL ingest) may carry a password or a signed query.
const redactUrl = (value: string): string => {
  if (!/^https?:\/\//i.test(value)) return redactString(value)
  try {
    const url = new URL(value)
    if (url.password !== "") url.password = REDACTED
    const query = redactQuery(url.search.slice(1))
    url.search = query ?? ""
    return redactString(url.toString())
  } catch {
    return redactString(value)
  }
}

/** A query string (without `?`) as the log keeps it; null when empty. */
export const redactQuery = (query: string): string | null => {
  if (query === "") return null
  const params = new URLSearchParams(query)
  const kept = [...params].map(([name, value]): [string, string] =>
    SECRET_NAME.test(name) ? [name, REDACTED] : [name, redactUrl(value)]
  )
  return new URLSearchParams(kept).toString()
}

// Credentials sent as headers, besides any whose name looks secret.
const SECRET_HEADERS = new Set([
  "authorization",
  "proxy-authorization",
  "cookie",
  "set-cookie",
  "x-amz-firehose-access-key"
])
const MAX_HEADERS = 64
const MAX_HEADER_VALUE = 1024

/** Request headers as the log keeps them: secrets replaced, bounded in count and length. */
export const redactHeaders = (
  headers: Readonly<Record<string, string | undefined>>
): Record<string, string> =>
  Object.fromEntries(
    Object.entries(headers)
      .filter((entry): entry is [string, string] => entry[1] !== undefined)
      .slice(0, MAX_HEADERS)
      .map(([name, value]) => [
        redactString(name),
        SECRET_HEADERS.has(name.toLowerCase()) || SECRET_NAME.test(name)
          ? REDACTED
          : redactString(value.slice(0, MAX_HEADER_VALUE))
      ])
  )
