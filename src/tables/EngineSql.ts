/** Small statements the tables code runs on an engine, with rows decoded by Schema. */
import { Effect, Schema, Stream } from "effect"
import { CommandRequest, QueryRequest } from "../../domain/Engine.js"
import type { AnalyticalEngine, EngineError } from "../../domain/Engine.js"

/** Runs `sql` and decodes its `JSONEachRow` rows; a row that does not decode is a defect. */
export const rows = <A, I>(
  engine: AnalyticalEngine,
  schema: Schema.Schema<A, I>,
  sql: string
): Effect.Effect<ReadonlyArray<A>, EngineError> =>
  engine.query(new QueryRequest({ sql, format: "JSONEachRow", queryId: crypto.randomUUID() })).pipe(
    Stream.decodeText(),
    Stream.mkString,
    Effect.map((text) => text.split("\n").filter((line) => line.length > 0)),
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
