/**
 * The engine's `JSON` output as the API's result: `meta`, `data`, `rows`,
 * `statistics{elapsed, rows_read, bytes_read}` and `hints`, nothing else. It is read
 * whole (the result size limit bounds it); other formats stream.
 */
import { Effect, Either, Schema, Stream } from "effect"
import type { EngineError } from "../../domain/Engine.js"
import { QueryResult } from "../../domain/api/QueryApi.js"
import { toEngineError } from "../engine/EngineMessage.js"

const EngineJson = Schema.parseJson(
  Schema.Struct({
    meta: QueryResult.fields.meta,
    data: QueryResult.fields.data,
    rows: QueryResult.fields.rows,
    statistics: QueryResult.fields.statistics,
    exception: Schema.optional(Schema.String)
  })
)

// A failure after the engine began writing JSON arrives inside it, possibly cut short.
const EXCEPTION = /"exception":\s*"((?:[^"\\]|\\.)*)"/

const failureIn = (text: string): EngineError => {
  const found = EXCEPTION.exec(text)?.[1]
  return toEngineError(
    new Error(found === undefined ? "The result was cut short" : JSON.parse(`"${found}"`))
  )
}

export const reshapeJson = (
  body: Stream.Stream<Uint8Array, EngineError>,
  hints: ReadonlyArray<string> = []
): Effect.Effect<string, EngineError> =>
  Stream.decodeText(body).pipe(
    Stream.mkString,
    Effect.flatMap((text) => {
      const decoded = Schema.decodeUnknownEither(EngineJson)(text)
      if (Either.isLeft(decoded) || decoded.right.exception !== undefined) {
        return Effect.fail(failureIn(text))
      }
      const { meta, data, rows, statistics } = decoded.right
      return Effect.succeed(
        JSON.stringify({
          meta,
          data,
          rows,
          statistics: {
            elapsed: statistics.elapsed,
            rows_read: statistics.rows_read,
            bytes_read: statistics.bytes_read
          },
          hints
        })
      )
    })
  )
