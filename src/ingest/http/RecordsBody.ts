/**
 * The body of a plain insert as `Records`: its format from the content type, its bytes
 * streamed (never buffered whole) and decoded, hashed as they arrive when the insert has
 * a token.
 */
import type { HttpServerRequest } from "@effect/platform"
import { Effect } from "effect"
import { createHash } from "node:crypto"
import { UnsupportedMediaType } from "../../../domain/Errors.js"
import type { Records, RecordsFormat } from "../../../domain/IngestWriter.js"
import { mediaType } from "../../body/ContentType.js"
import type { BodyError, BodyRules } from "../../body/ReadableBody.js"
import { decodedBody } from "../../body/ReadableBody.js"
import { checkDeclaredLength, requestBytes } from "../../http/RequestBody.js"

const JSON_TYPES = ["", "application/json", "text/json"]
const LINE_TYPES = [
  "application/x-ndjson",
  "application/ndjson",
  "application/jsonl",
  "application/x-jsonlines"
]

const formatOf = (contentType: string | undefined) => {
  const type = mediaType(contentType)
  if (JSON_TYPES.includes(type)) return Effect.succeed<RecordsFormat>("json")
  if (LINE_TYPES.includes(type)) return Effect.succeed<RecordsFormat>("ndjson")
  return Effect.fail(
    new UnsupportedMediaType({
      message: `Inserts read application/json or application/x-ndjson, not ${type}.`,
      hint: "Send a JSON object or array with content-type: application/json, or one object per line with application/x-ndjson."
    })
  )
}

export const recordsBody = Effect.fnUntraced(function* (
  request: HttpServerRequest.HttpServerRequest,
  token: string | undefined,
  rules: BodyRules
) {
  yield* checkDeclaredLength(request, rules)
  const format = yield* formatOf(request.headers["content-type"])
  const hash = token === undefined ? undefined : createHash("sha256")
  const bytes = yield* decodedBody(
    requestBytes(request, rules.unreadable),
    request.headers["content-encoding"],
    rules,
    hash
  )
  let digest: string | undefined
  return {
    bytes,
    format,
    token:
      token === undefined || hash === undefined
        ? undefined
        : { token, bodyHash: Effect.sync(() => (digest ??= hash.digest("hex"))) }
  } satisfies Records<BodyError>
})
