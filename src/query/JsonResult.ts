/**
 * The engine's `JSON` output as the API's result: `meta`, `data`, `rows`,
 * `statistics{elapsed, rows_read, bytes_read}` and `hints`, nothing else. It is read
 * whole (the result size limit bounds it); other formats stream.
 */
import { Either, Schema } from "effect"
import type { EngineError } from "../../domain/Engine.js"
import { QueryResult } from "../../domain/api/QueryApi.js"
import { toEngineError } from "../engine/EngineMessage.js"

// `data` rows are the engine's own objects: checking each row's fields would cost time
// in proportion to the result and tell nothing new.
const EngineJson = Schema.Struct({
  meta: QueryResult.fields.meta,
  data: Schema.Array(Schema.Unknown),
  rows: QueryResult.fields.rows,
  statistics: QueryResult.fields.statistics,
  exception: Schema.optional(Schema.String)
})
const decodeEngineJson = Schema.decodeUnknownEither(EngineJson)

// A failure after the engine began writing JSON arrives inside it, possibly cut short.
const EXCEPTION = /"exception":\s*"((?:[^"\\]|\\.)*)"/

const failureIn = (text: string): EngineError => {
  const found = EXCEPTION.exec(text)?.[1]
  return toEngineError(
    new Error(found === undefined ? "The result was cut short" : JSON.parse(`"${found}"`))
  )
}

const parsed = (text: string): unknown => {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

/** The API's JSON text for the engine's JSON result `bytes`, or the failure inside it. */
export const reshapeJson = (
  bytes: Uint8Array,
  hints: ReadonlyArray<string> = []
): Either.Either<string, EngineError> => {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("utf8")
  const decoded = decodeEngineJson(parsed(text))
  if (Either.isLeft(decoded) || decoded.right.exception !== undefined) {
    return Either.left(failureIn(text))
  }
  const { meta, data, rows, statistics } = decoded.right
  return Either.right(
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
}
