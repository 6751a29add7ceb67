/**
 * `POST /v1/tables/{t}`: reads the raw body stream itself (never buffered whole),
 * checks its declared size, type and encoding, and hands it to `BodyInsert`.
 */
import { HttpServerResponse } from "@effect/platform"
import type { HttpServerRequest } from "@effect/platform"
import { Effect, Option } from "effect"
import type { InsertParams } from "../../domain/api/TablesApi.js"
import type { AnalyticalEngine } from "../../domain/Engine.js"
import { UnsupportedMediaType } from "../../domain/Errors.js"
import { insertBody } from "./BodyInsert.js"
import { decodeBody, newBodyHash } from "./BodyDecoding.js"
import { checkDeclaredLength, requestBody } from "./RequestBody.js"
import { insertTransformed } from "./TransformedInsert.js"

export const CHUNK_BYTES = 4 * 1024 * 1024

const JSON_TYPES = ["application/json", "text/json"]
const LINE_TYPES = [
  "application/x-ndjson",
  "application/ndjson",
  "application/jsonl",
  "application/x-jsonlines"
]

/** `true` for one object per line, `false` for JSON, or the 415 for anything else. */
const bodyKind = (contentType: string | undefined) => {
  const type = (contentType ?? "application/json").split(";")[0]!.trim().toLowerCase()
  if (JSON_TYPES.includes(type) || type === "") return Effect.succeed(false)
  if (LINE_TYPES.includes(type)) return Effect.succeed(true)
  return Effect.fail(
    new UnsupportedMediaType({
      message: `Inserts read application/json or application/x-ndjson, not ${type}.`,
      hint: "Send a JSON object or array with content-type: application/json, or one object per line with application/x-ndjson."
    })
  )
}

export interface InsertTarget {
  readonly engine: AnalyticalEngine
  readonly database: string
  readonly table: string
  readonly params: typeof InsertParams.Type
  readonly request: HttpServerRequest.HttpServerRequest
  readonly maxInsertBytes: number
}

export const insertFromBody = Effect.fn("TablesHttp.insert")(function* (target: InsertTarget) {
  const { request, params, maxInsertBytes } = target
  if (params.transform !== undefined) {
    return yield* insertTransformed(target, params.transform)
  }
  yield* checkDeclaredLength(request, maxInsertBytes)
  const lines = yield* bodyKind(request.headers["content-type"])
  const token = params.insert_deduplication_token ?? request.headers["idempotency-key"]
  const hash = token === undefined ? undefined : newBodyHash()
  const bytes = yield* decodeBody(
    requestBody(request),
    request.headers["content-encoding"],
    maxInsertBytes,
    hash
  )
  let digest: string | undefined
  const inserted = yield* insertBody({
    engine: target.engine,
    database: target.database,
    table: target.table,
    body: bytes,
    lines,
    chunkBytes: CHUNK_BYTES,
    token: Option.map(Option.fromNullable(token), (value) => ({
      token: value,
      bodyHash: () => (digest ??= hash?.digest("hex") ?? "")
    }))
  })
  return HttpServerResponse.unsafeJson({ inserted })
})
