/**
 * An insert of one statement: a body of one chunk goes straight into a table this
 * process has written to before, as one part (one block: the engine writes nothing of
 * a statement that fails while parsing or a constraint). The table's constraints refuse
 * an overlong path (the body's fault) and a path or type it has no column for yet: such
 * a body goes the staged way instead, which adds the columns before the rows appear.
 */
import { Data, Effect, Option } from "effect"
import { InsertRequest } from "../../domain/Engine.js"
import type { EngineError } from "../../domain/Engine.js"
import type { InsertTokenReused, MalformedRecords } from "../../domain/Errors.js"
import * as EngineSql from "../tables/EngineSql.js"
import * as InsertTokens from "../tables/InsertTokens.js"
import * as Layout from "../tables/Layout.js"
import type { BodyInsertDependencies, HashedToken, InsertTarget } from "./BodyInsertRequest.js"
import { checkToken } from "./BodyInsertRequest.js"
import { isEngineError, refusal } from "./InsertRefusals.js"
import type { Chunk } from "./RecordSplitter.js"

/** Far above a chunk's rows: the engine then forms one block, so one part, of them. */
const ONE_PART = { max_insert_block_size: 16_777_216 }

/**
 * Nothing was inserted, and the staged way should take the body: it brings a path the
 * table has no column for, or the table is gone (dropped since this process wrote to it).
 */
export class NotDirect extends Data.TaggedError("NotDirect") {}

/**
 * Why the engine refused the rows, when the staged way should take them: a path or type
 * without its column (`new`), or the table or its known-paths table gone (`gone`: dropped
 * since this process wrote to it, or lost with an engine killed just after making them).
 */
const notDirect = (error: EngineError, table: string): "new" | "gone" | undefined => {
  if (error.type === "VIOLATED_CONSTRAINT" && error.message.includes(Layout.KNOWN_PATHS_CONSTRAINT))
    return "new"
  if (error.type === "UNKNOWN_TABLE" || error.message.includes(Layout.knownPathsTable(table)))
    return "gone"
  return undefined
}

export const insertDirect = (
  { locks }: BodyInsertDependencies,
  request: InsertTarget,
  chunk: Chunk,
  inserted: number,
  hashed: Option.Option<HashedToken>
): Effect.Effect<number, MalformedRecords | InsertTokenReused | NotDirect> => {
  const { engine, database, table } = request
  const state = locks.stateOf(database, table)
  const shape = Layout.insertShape(request.layout, engine)

  const write = EngineSql.insertParts(
    engine,
    new InsertRequest({
      database,
      table,
      format: shape.format,
      columns: shape.columns,
      queryId: crypto.randomUUID(),
      // One block, so one deduplication id: a retry after the engine died between these
      // rows and their token's record writes nothing again (InsertTokens.ts).
      settings: { ...ONE_PART, ...shape.settings, ...InsertTokens.insertSettings(hashed) }
    }),
    chunk.parts
  ).pipe(
    Effect.catchIf(
      isEngineError,
      (error): Effect.Effect<never, NotDirect | MalformedRecords | EngineError> => {
        const why = notDirect(error, table)
        if (why === undefined) return refusal(chunk, error)
        // Gone: the staged way makes the table and its known paths again.
        if (why === "gone") state.columns = undefined
        return Effect.fail(new NotDirect())
      }
    )
  )

  // A token is checked, used and recorded under the table's lock, so two retries of one
  // body cannot both insert.
  const withToken = (token: HashedToken) =>
    state.lock.withPermits(1)(
      Effect.gen(function* () {
        const seen = yield* checkToken(engine, database, table, token)
        if (Option.isSome(seen)) return seen.value
        yield* write
        yield* InsertTokens.record(engine, database, table, token.token, token.hash, inserted)
        return inserted
      })
    )

  const chosen: Effect.Effect<
    number,
    EngineError | MalformedRecords | InsertTokenReused | NotDirect
  > = Option.isSome(hashed) ? withToken(hashed.value) : Effect.as(write, inserted)
  return chosen.pipe(
    // The engine in trouble: ours to answer (a 500), and the table's state read again.
    Effect.catchIf(isEngineError, (error) =>
      Effect.zipRight(
        Effect.sync(() => {
          state.columns = undefined
        }),
        Effect.die(error)
      )
    )
  )
}
