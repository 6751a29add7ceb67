/** Small statements the tables code runs on an engine, with rows decoded by Schema. */
import { Effect, Schema, Stream } from "effect"
import {
  CommandRequest,
  InsertRequest,
  EngineQuery,
  WHOLE_INSERT_BYTES
} from "../../domain/Engine.js"
import type { AnalyticalEngine, EngineError, InsertSummary } from "../../domain/Engine.js"

/** Far above any catalogue answer (tables, columns, paths) these statements read. */
const ROWS_MAX_BYTES = 256 * 1024 * 1024
const decoder = new TextDecoder()

/** Runs `sql` and decodes its `JSONEachRow` rows; a row that does not decode is a defect. */
export const rows = <A, I>(
  engine: AnalyticalEngine,
  schema: Schema.Schema<A, I>,
  sql: string
): Effect.Effect<ReadonlyArray<A>, EngineError> =>
  // Whole, not streamed: one round trip to a cluster's worker where a stream takes three
  // (its piece, the acknowledgement, its end); these answers are small.
  engine
    .queryWhole(
      // Read-only, so the worker may run it on a session kept from an earlier read
      // (opening one costs about as much as these statements themselves).
      new EngineQuery({
        sql,
        format: "JSONEachRow",
        queryId: crypto.randomUUID(),
        settings: { readonly: 1 }
      }),
      ROWS_MAX_BYTES
    )
    .pipe(
      Effect.map((bytes) =>
        decoder
          .decode(bytes)
          .split("\n")
          .filter((line) => line.length > 0)
      ),
      Effect.flatMap((lines) =>
        // `JSON.parse`, not `Schema.parseJson(schema)`: building that schema for each row
        // merged annotations at a cost above the decoding itself (seen in an insert profile);
        // `decodeUnknown` keeps its parser per schema.
        Effect.forEach(lines, (line) =>
          Effect.flatMap(Effect.orDie(Effect.try((): unknown => JSON.parse(line))), (json) =>
            Schema.decodeUnknown(schema)(json)
          )
        )
      ),
      Effect.catchTag("ParseError", (error) => Effect.die(error))
    )

export const command = (engine: AnalyticalEngine, sql: string): Effect.Effect<void, EngineError> =>
  engine.command(new CommandRequest({ sql, queryId: crypto.randomUUID() }))

/** Runs `statements` one after another (a table's DDL: src/engine/TableDdl.ts). */
export const commands = (
  engine: AnalyticalEngine,
  statements: ReadonlyArray<string>
): Effect.Effect<void, EngineError> =>
  Effect.forEach(statements, (sql) => command(engine, sql), { discard: true })

/** Bodies up to this size in several parts are joined, for one call (`insertWhole`). */
const JOINED_BYTES = 256 * 1024

/**
 * `parts` into the engine: one part up to `WHOLE_INSERT_BYTES`, or parts up to
 * `JOINED_BYTES` joined (as a JSON array's brackets and records are), in one call
 * (`insertWhole`); a larger body as a stream of its parts, so no buffer holds all of it
 * again. A chunk of records is the request's pieces as they came, and joining a 1 MiB one
 * allocated and copied it once more (and such allocations start a node's full
 * collections): on a ClickHouse server the pieces go to the client as they are; an
 * engine in another process joins them into one message still.
 */
export const insertParts = (
  engine: AnalyticalEngine,
  request: InsertRequest,
  parts: ReadonlyArray<Uint8Array>
): Effect.Effect<InsertSummary, EngineError> => {
  const size = parts.reduce((total, part) => total + part.byteLength, 0)
  if (parts.length === 1 && size <= WHOLE_INSERT_BYTES)
    return engine.insertWhole(request, parts[0]!)
  if (size <= JOINED_BYTES) return engine.insertWhole(request, Buffer.concat(parts, size))
  return engine.insert(request, Stream.fromIterable(parts))
}

/** Appends `body` (text, or bytes in pieces) in `format` to a table that exists. */
export const insert = (
  engine: AnalyticalEngine,
  database: string,
  table: string,
  format: string,
  body: string | ReadonlyArray<Uint8Array>,
  options: {
    readonly columns?: ReadonlyArray<string>
    readonly settings?: Record<string, string | number | boolean>
  } = {}
): Effect.Effect<void, EngineError> =>
  insertParts(
    engine,
    new InsertRequest({
      database,
      table,
      format,
      queryId: crypto.randomUUID(),
      settings: options.settings ?? {},
      ...(options.columns === undefined ? {} : { columns: options.columns })
    }),
    typeof body === "string" ? [new TextEncoder().encode(body)] : body
  ).pipe(Effect.asVoid)
