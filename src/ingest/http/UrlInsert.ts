/**
 * `POST /v1/tables/{t}?url=…`: the HTTP side of `UrlIngest`. With
 * `accept: application/x-ndjson` the load's events stream as `started`, `progress` and
 * `done` or `error` lines; otherwise the answer is one `{inserted}`.
 */
import { HttpServerResponse } from "@effect/platform"
import type { HttpServerRequest } from "@effect/platform"
import { Effect, Stream } from "effect"
import type { ClusterScope } from "../../../domain/Authorization.js"
import { BadRequest, errorBody } from "../../../domain/Errors.js"
import type { DatabaseName, TableName } from "../../../domain/Ids.js"
import { UrlSource } from "../../../domain/UrlIngest.js"
import type { LoadEvent, UrlIngest } from "../../../domain/UrlIngest.js"

export interface UrlInsert {
  readonly scope: ClusterScope
  readonly database: DatabaseName
  readonly table: TableName
  readonly url: string
  readonly transform: string | undefined
  /** `insert_deduplication_token` or the `idempotency-key` header. */
  readonly token: string | undefined
}

const encoder = new TextEncoder()

/** One event as its NDJSON line. */
const eventLine = (event: LoadEvent): Uint8Array => {
  const line = (value: object) => encoder.encode(JSON.stringify(value) + "\n")
  switch (event._tag) {
    case "Started":
      return line({ type: "started", query_id: event.queryId, format: event.format })
    case "Progress":
      return line({
        type: "progress",
        written_rows: event.writtenRows,
        read_bytes: event.readBytes,
        total_bytes: event.totalBytes ?? null
      })
    case "Done":
      return line({ type: "done", written_rows: event.writtenRows, read_bytes: event.readBytes })
    case "Failed":
      return line({ type: "error", ...errorBody(event.error) })
    case "Cancelled":
      return line({
        type: "error",
        error: "cancelled",
        message: "The load was cancelled.",
        hint: ""
      })
    case "Crashed":
      return line({
        type: "error",
        error: "internal",
        message: `Internal error (trace id ${event.traceId}).`,
        hint: "Retry later; if it persists, report the trace id."
      })
  }
}

export const urlInsert = Effect.fnUntraced(function* (
  urlIngest: UrlIngest["Type"],
  request: HttpServerRequest.HttpServerRequest,
  insert: UrlInsert
) {
  if (insert.transform !== undefined) {
    return yield* new BadRequest({
      message: "transform cannot be combined with url.",
      hint: "Transform the data before hosting it, then insert it by url without transform."
    })
  }
  if (Number(request.headers["content-length"] ?? "0") > 0) {
    return yield* new BadRequest({
      message: "An insert with url takes no body.",
      hint: "Send either the records as the body or a url, not both."
    })
  }
  const { scope, database, table } = insert
  const source = new UrlSource({ url: insert.url, token: insert.token }, true)
  if (!(request.headers["accept"] ?? "").includes("application/x-ndjson")) {
    return HttpServerResponse.unsafeJson(yield* urlIngest.insert(scope, database, table, source))
  }
  const events = yield* urlIngest.insertWithProgress(scope, database, table, source)
  return HttpServerResponse.stream(Stream.map(events, eventLine), {
    contentType: "application/x-ndjson"
  })
})
