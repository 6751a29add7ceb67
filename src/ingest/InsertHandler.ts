/**
 * `POST /v1/tables/{t}`: reads the raw body stream itself (never buffered whole),
 * checks its declared size, type and encoding, and hands it to `BodyInsert`.
 */
import { HttpServerResponse } from "@effect/platform"
import type { HttpServerRequest } from "@effect/platform"
import { NodeHttpServerRequest, NodeStream } from "@effect/platform-node"
import { Effect, identity, Option, Stream } from "effect"
import type { InsertParams } from "../../domain/api/TablesApi.js"
import type { AnalyticalEngine } from "../../domain/Engine.js"
import { BadRequest, PayloadTooLarge, UnsupportedMediaType } from "../../domain/Errors.js"
import { insertBody } from "./BodyInsert.js"
import { decodeBody, newBodyHash } from "./BodyDecoding.js"
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

/**
 * The body without `request.stream`'s habit of destroying the socket when reading stops
 * early: an insert refused mid-body still answers, and the rest of the body is drained.
 */
const requestBody = (request: HttpServerRequest.HttpServerRequest) =>
  Stream.unwrapScoped(
    Effect.gen(function* () {
      const incoming = NodeHttpServerRequest.toIncomingMessage(request)
      yield* Effect.addFinalizer(() =>
        Effect.sync(() => {
          if (!incoming.readableEnded) incoming.resume()
        })
      )
      return NodeStream.fromReadable<unknown, Uint8Array>(() => incoming, identity, {
        closeOnDone: false
      })
    })
  )

export const insertFromBody = Effect.fn("TablesHttp.insert")(function* (target: InsertTarget) {
  const { request, params, maxInsertBytes } = target
  if (params.transform !== undefined) {
    return yield* insertTransformed(target, params.transform)
  }
  const declared = Number(request.headers["content-length"] ?? "0")
  if (declared > maxInsertBytes) {
    return yield* new PayloadTooLarge({
      message: `The insert body (${declared} bytes) is larger than ${maxInsertBytes} bytes.`,
      hint: "Split the data into several inserts (the limit is SLUICE_MAX_INSERT_BYTES)."
    })
  }
  const lines = yield* bodyKind(request.headers["content-type"])
  const token = params.insert_deduplication_token ?? request.headers["idempotency-key"]
  const hash = token === undefined ? undefined : newBodyHash()
  const bytes = yield* decodeBody(
    requestBody(request).pipe(
      Stream.mapError(
        () =>
          new BadRequest({
            message: "The request body could not be read.",
            hint: "Retry the insert."
          })
      )
    ),
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
