/**
 * Lets the request log see a request body only if the endpoint itself read it as text
 * (HttpApi reads JSON payloads that way). The request is wrapped so that `text` (and the
 * `json` and form readers built on it) read it with `RequestBody.textReader` and hand a copy to the
 * log; `stream`, which raw endpoints such as insert use, is untouched, so nothing is ever
 * buffered for the log.
 */
import type { HttpServerRequest } from "@effect/platform"
import { Effect } from "effect"
import { textReader } from "../../http/RequestBody.js"
import { redactBody } from "../Redaction.js"

/** Bodies larger than this are not kept. */
export const MAX_LOGGED_BODY_BYTES = 8 * 1024

export interface CapturedBody {
  /** Redacted text, when a body of at most 8 KiB was read as text. */
  text: string | null
  /** Bytes of the text read, whatever its size. */
  bytes: number | null
}

export const captureBody = (
  request: HttpServerRequest.HttpServerRequest,
  captured: CapturedBody
): HttpServerRequest.HttpServerRequest => {
  const text = Effect.tap(textReader(request), (text) => {
    if (captured.bytes !== null) return
    const bytes = Buffer.byteLength(text)
    captured.bytes = bytes
    if (bytes > 0 && bytes <= MAX_LOGGED_BODY_BYTES) captured.text = redactBody(text)
  })
  return new Proxy(request, {
    get(target, property, receiver) {
      return property === "text" ? text : Reflect.get(target, property, receiver)
    }
  })
}
