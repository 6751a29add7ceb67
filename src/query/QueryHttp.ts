/**
 * `POST /v1/query` and `POST /v1/query/cancel`: the HTTP side of
 * `QueryRunner`. A whole result goes out with its length; a streamed one that fails after
 * its headers went out ends with the reason as its last line (`{"exception": …}` for JSON
 * rows, the message itself for text formats), and the connection closes without
 * completing the response, so clients see it cut off rather than whole.
 */
import { HttpApiBuilder, HttpServerResponse } from "@effect/platform"
import { Effect, Stream } from "effect"
import { SluiceApi } from "../../domain/Api.js"
import { HINTS_HEADER } from "../../domain/api/QueryApi.js"
import type { QueryFormat } from "../../domain/api/QueryApi.js"
import type { QueryFailure, QueryOutput } from "../../domain/QueryRunner.js"
import { QueryRunner, QueryStatement } from "../../domain/QueryRunner.js"
import { abortResponse } from "../http/AbortResponse.js"
import { requestScopes } from "../http/RequestScope.js"
import { hintsHeader } from "./Hints.js"
import { contentType } from "./QueryFormats.js"

export const QUERY_ID_HEADER = "x-service-query-id"

const errorLine = (format: QueryFormat, error: QueryFailure): Uint8Array => {
  const text = error.hint === "" ? error.message : `${error.message} ${error.hint}`
  return Buffer.from(
    format.startsWith("JSON")
      ? `${JSON.stringify({ exception: text })}\n`
      : `\n${text.replace(/\s+/g, " ")}\n`
  )
}

const responseHeaders = (result: QueryOutput) => {
  const headers: Record<string, string> = { [QUERY_ID_HEADER]: result.queryId }
  if (result.hints.length > 0) headers[HINTS_HEADER] = hintsHeader(result.hints)
  return headers
}

const respond = (format: QueryFormat, result: QueryOutput) => {
  const options = { contentType: contentType(format), headers: responseHeaders(result) }
  if (result._tag === "Whole") {
    return Effect.succeed(HttpServerResponse.uint8Array(result.body, options))
  }
  return Effect.map(abortResponse, (abort) =>
    HttpServerResponse.stream(
      Stream.concat(Stream.fromIterable(result.head), result.rest).pipe(
        Stream.catchAll((error) =>
          Stream.concat(
            Stream.make(errorLine(format, error)),
            Stream.drain(Stream.fromEffect(abort))
          )
        )
      ),
      options
    )
  )
}

export const QueryHttpLive = HttpApiBuilder.group(SluiceApi, "query", (handlers) =>
  Effect.gen(function* () {
    const scopes = yield* requestScopes
    const runner = yield* QueryRunner

    // No span of their own: the request's span (named by its route) covers each, and the
    // engine call inside has its own.
    return handlers
      .handle("query", ({ payload, urlParams }) =>
        Effect.gen(function* () {
          const { scope, database } = yield* scopes.dataScope("query", urlParams)
          const statement = new QueryStatement(
            {
              sql: payload.sql,
              format: payload.format,
              queryId: payload.query_id ?? crypto.randomUUID()
            },
            true
          )
          return yield* Effect.flatMap(runner.run(scope, database, statement), (result) =>
            respond(payload.format, result)
          )
        })
      )
      .handle("cancel", ({ payload, urlParams }) =>
        Effect.gen(function* () {
          const { scope, database } = yield* scopes.dataScope("query", urlParams)
          yield* runner.cancel(scope, database, payload.query_id)
          return { cancelled: true as const }
        })
      )
  })
)
