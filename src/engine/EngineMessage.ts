/**
 * Engine failures as `EngineError`s whose messages may be shown to a user: no server
 * file paths, stack traces or build versions.
 */
import { ENGINE_UNREACHABLE, EngineError } from "../../domain/Engine.js"

const STACK_TRACE = /\s*(?:Stack trace\b|\n\s*0\.\s)[\s\S]*$/i
const EXCEPTION_PREFIX = /^[\s\S]*?(?:Code|Error): \d+\.\s*[\w:]*Exception:\s*/
const VERSION = /\s*\(version\b(?:[^()]|\([^()]*\))*\)/g
const TRAILING_TYPE = /\s*\([A-Z][A-Z0-9_]{2,}\)\.?\s*$/
// A slash that starts a token (not inside a URL, an operator like `1/2`, or `file/uri`).
const ABSOLUTE_PATH = /(?<![\w.:/~-])\/[^\s'"`,;:()[\]{}<>]+/g

/** Strips what a user must not see (or cannot use) from an engine's error message. */
export const cleanEngineMessage = (raw: string): string => {
  let message = raw.replace(STACK_TRACE, "")
  // Nested exceptions repeat the prefix; keep the innermost message.
  while (EXCEPTION_PREFIX.test(message)) message = message.replace(EXCEPTION_PREFIX, "")
  message = message.replace(VERSION, "")
  while (TRAILING_TYPE.test(message)) message = message.replace(TRAILING_TYPE, "")
  message = message.replace(ABSOLUTE_PATH, "<path>").replace(/\s+/g, " ").trim()
  return message.length > 0 ? message : "The engine failed the statement"
}

const CODE = /(?:Code|Error): (\d+)\./
const TYPE = /\(([A-Z][A-Z0-9_]{2,})\)/

const field = (error: object, key: "code" | "type"): unknown =>
  key in error ? (error as Record<typeof key, unknown>)[key] : undefined

/** What a socket error on the way to a ClickHouse server means, by its code. */
const UNREACHABLE: Record<string, string> = {
  ECONNREFUSED: "connection refused",
  ENOTFOUND: "no such host",
  EAI_AGAIN: "its name could not be resolved",
  ETIMEDOUT: "the connection timed out",
  ECONNRESET: "the connection was reset",
  EHOSTUNREACH: "no route to the host",
  EPIPE: "the connection was closed"
}

/** Why the server could not be reached, when `error` is a socket's failure. */
export const unreachableReason = (error: unknown): string | undefined => {
  const code = (error as { readonly code?: unknown } | null)?.code
  return typeof code === "string" ? UNREACHABLE[code] : undefined
}

/**
 * Maps anything the client throws: `ClickHouseError`s carry `code` (a numeric string)
 * and `type`; chDB and network errors may carry neither, so they are parsed from the
 * message when it has ClickHouse's shape. A socket's failure says only that the server
 * could not be reached, without its address.
 */
export const toEngineError = (error: unknown): EngineError => {
  if (error instanceof EngineError) return error
  const unreachable = unreachableReason(error)
  if (unreachable !== undefined) {
    return new EngineError({
      message: `The ClickHouse server could not be reached (${unreachable}).`,
      type: ENGINE_UNREACHABLE
    })
  }
  const raw = error instanceof Error ? error.message : String(error)
  const fields = typeof error === "object" && error !== null ? error : {}
  const rawCode = field(fields, "code") ?? CODE.exec(raw)?.[1]
  const rawType = field(fields, "type") ?? TYPE.exec(raw)?.[1]
  const code = typeof rawCode === "string" && /^\d+$/.test(rawCode) ? Number(rawCode) : rawCode
  return new EngineError({
    message: cleanEngineMessage(raw),
    ...(typeof code === "number" ? { code } : {}),
    ...(typeof rawType === "string" ? { type: rawType } : {})
  })
}

export const cancelledError = new EngineError({
  message: "Query was cancelled",
  code: 394,
  type: "QUERY_WAS_CANCELLED"
})

/** A result past the limit of bytes its reader takes (`max_result_bytes` does not apply to streamed results). */
export const resultTooLarge = (maxBytes: number) =>
  new EngineError({
    message: `The result is larger than ${maxBytes} bytes.`,
    type: "TOO_MANY_ROWS_OR_BYTES"
  })
