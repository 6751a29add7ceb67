/**
 * What the engine's refusal of an insert's rows means to the user who sent them: a
 * malformed record or a field name too long, pointed at by record and line. Anything
 * else is the engine's trouble, not the body's, and stays an `EngineError`.
 */
import { Effect } from "effect"
import { EngineError } from "../../domain/Engine.js"
import { MalformedRecords } from "../../domain/Errors.js"
import { MAX_PATH_BYTES, PATH_LENGTH_CONSTRAINT } from "../tables/Layout.js"
import type { Chunk } from "./RecordSplitter.js"
import { SplitError, locate } from "./RecordSplitter.js"

const ROW = /\(at row (\d+)\)/
const CONSTRAINT_ROW = /violated at row (\d+)/
const PARSE_ERRORS = /^(CANNOT_PARSE|INCORRECT_DATA|INCORRECT_JSON|CANNOT_READ)/
// The engine refuses an ALTER whose statement, or the table definition it would leave,
// passes `max_query_size`: too many new columns at once, or in all.
const TOO_WIDE = /max_query_size/

const NOTHING_INSERTED =
  "Send one JSON object, an array of objects, or one object per line (application/x-ndjson). Nothing was inserted."

const recordAt = (chunk: Chunk, message: string, pattern: RegExp) =>
  locate(chunk, Number(pattern.exec(message)?.[1] ?? "1"))

// The engine's advice after it names the path (a setting of its own) is not the sender's to take.
const DUPLICATE_PATH = /Duplicate path found during parsing JSON object: (.+?)\. You can enable/s

const malformed = (chunk: Chunk, error: EngineError) => {
  const { line, record } = recordAt(chunk, error.message, ROW)
  const duplicate = DUPLICATE_PATH.exec(error.message)?.[1]
  if (duplicate !== undefined)
    return new MalformedRecords({
      message: `Record ${record} (line ${line}) holds the field '${duplicate}' twice; each field may appear once in a record.`,
      hint: `Send the field once (nested objects count by their dotted path). Nothing was inserted.`
    })
  const detail = error.message
    .replace(ROW, "")
    .replace(/:?\s*While executing \w+\.?/, "")
    .trim()
    .replace(/:$/, "")
  return new MalformedRecords({
    message: `Malformed JSON in record ${record} (line ${line}): ${detail}`,
    hint: NOTHING_INSERTED
  })
}

const overlong = (chunk: Chunk, error: EngineError) => {
  const { line, record } = recordAt(chunk, error.message, CONSTRAINT_ROW)
  return new MalformedRecords({
    message: `Record ${record} (line ${line}) has a field name (its dotted path) longer than ${MAX_PATH_BYTES} bytes; at most ${MAX_PATH_BYTES} are accepted.`,
    hint: "Use shorter keys (dotted paths count whole). Nothing was inserted."
  })
}

/** The body's fault as a 400; any other engine failure as it was. */
export const refusal = (
  chunk: Chunk,
  error: EngineError
): Effect.Effect<never, MalformedRecords | EngineError> => {
  if (error.type === "VIOLATED_CONSTRAINT" && error.message.includes(PATH_LENGTH_CONSTRAINT)) {
    return Effect.fail(overlong(chunk, error))
  }
  // The body's own fault: the engine names the row, or the error is one of parsing (its
  // message may quote the record, so neither its type nor its row is always found).
  if (
    ROW.test(error.message) ||
    PARSE_ERRORS.test(error.type ?? "") ||
    /JSON|parse/i.test(error.message)
  ) {
    return Effect.fail(malformed(chunk, error))
  }
  return Effect.fail(error)
}

export const splitFailure = (error: unknown) =>
  error instanceof SplitError
    ? new MalformedRecords({ message: `Malformed body: ${error.message}.`, hint: NOTHING_INSERTED })
    : new MalformedRecords({ message: String(error) })

export const isTooWide = (error: EngineError) => TOO_WIDE.test(error.message)

export const tooWide = (table: string) =>
  new MalformedRecords({
    message: `Table '${table}' cannot take this insert's new fields: its definition would pass the engine's 256 KiB limit.`,
    hint: "Send fewer distinct fields or shorter names, or keep rarely queried data in one string field. Nothing was inserted."
  })

export const isEngineError = (error: unknown): error is EngineError => error instanceof EngineError
