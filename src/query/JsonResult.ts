/**
 * The engine's `JSON` output as the API's result: `meta`, `data`, `rows`,
 * `statistics{elapsed, rows_read, bytes_read}` and `hints`, nothing else. It is read
 * whole (the result size limit bounds it); other formats stream.
 */
import { Either, Schema } from "effect"
import type { EngineError } from "../../domain/Engine.js"
import { QueryResult } from "../../domain/api/QueryApi.js"
import { CompiledRows } from "../../domain/QueryRunner.js"
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

const EngineRows = Schema.Struct({
  ...CompiledRows.fields,
  exception: Schema.optional(Schema.String)
})
const decodeEngineRows = Schema.decodeUnknownEither(EngineRows)

const parsed = (text: string): unknown => {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

const textOf = (bytes: Uint8Array) =>
  Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("utf8")

/** The engine's JSON result `bytes` decoded as they are (rows as objects), or the failure inside. */
export const engineRows = (bytes: Uint8Array): Either.Either<CompiledRows, EngineError> => {
  const text = textOf(bytes)
  const decoded = decodeEngineRows(parsed(text))
  if (Either.isLeft(decoded) || decoded.right.exception !== undefined) {
    return Either.left(failureIn(text))
  }
  const { meta, data, rows, statistics } = decoded.right
  return Either.right({ meta, data, rows, statistics })
}

/** The API's JSON text for the engine's JSON result `bytes`, or the failure inside it. */
export const reshapeJson = (
  bytes: Uint8Array,
  hints: ReadonlyArray<string> = []
): Either.Either<string, EngineError> => {
  const text = textOf(bytes)
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
