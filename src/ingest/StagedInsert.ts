/**
 * An insert of more than one statement: the chunks go into a private staging table one
 * by one; only when the whole body went in are the new paths made columns and the
 * staging parts attached to the table in one step (`ATTACH PARTITION … FROM`, which links
 * the parts; `MOVE PARTITION` did the same but took 20–200 ms where this takes ~4,
 * measured on chDB). The staging table is emptied afterwards, off the insert's path
 * (Staging.ts). A rejected body leaves the table untouched.
 */
import { Effect, Option, Stream } from "effect"
import { InsertRequest } from "../../domain/Engine.js"
import type { EngineError } from "../../domain/Engine.js"
import type { InsertTokenReused, MalformedRecords } from "../../domain/Errors.js"
import * as EngineSql from "../tables/EngineSql.js"
import * as InsertTokens from "../tables/InsertTokens.js"
import * as Layout from "../tables/Layout.js"
import {
  addsPaths,
  knownPaths,
  mergePaths,
  rememberPaths,
  stagingPaths,
  unusablePath
} from "../tables/LeafPaths.js"
import type { BodyInsertDependencies, HashedToken, InsertTarget } from "./BodyInsertRequest.js"
import { checkToken } from "./BodyInsertRequest.js"
import { isEngineError, isTooWide, refusal, tooWide } from "./InsertRefusals.js"
import type { Chunk } from "./RecordSplitter.js"
import { acquireStaging } from "./Staging.js"
import { quoteIdentifier } from "../engine/Sql.js"

type PublishError = EngineError | InsertTokenReused | MalformedRecords

/**
 * A token-carrying body's rows, copied from its staging table with the engine's
 * deduplication (InsertTokens.ts) instead of attached: an attach is never deduplicated,
 * so a retry after the engine died between the attach and the token's record attached
 * the rows twice. The staging table never merges its parts (Staging.ts), so a retry's
 * copy reads the same blocks.
 */
const copySql = (
  database: string,
  table: string,
  staging: string,
  layout: Layout.TableLayout,
  token: HashedToken
) => {
  const columns = Layout.insertShape(layout).columns
  const read = columns.map((column) => (column === Layout.RAW_INPUT ? Layout.RAW_COLUMN : column))
  return (
    `INSERT INTO ${Layout.qualified(database, table)} (${columns.map(quoteIdentifier).join(", ")}) ` +
    `SELECT ${read.map(quoteIdentifier).join(", ")} FROM ${Layout.qualified(database, staging)} ` +
    InsertTokens.copySettingsSql(token)
  )
}

export const insertStaged = <E>(
  { tables, locks, events }: BodyInsertDependencies,
  request: InsertTarget,
  chunks: Stream.Stream<Chunk, MalformedRecords | E>,
  /** The records sent, once `chunks` has ended. */
  records: () => number,
  token: Effect.Effect<Option.Option<HashedToken>>
) =>
  Effect.gen(function* () {
    const { engine, database, table } = request
    let moved = false

    const pooled = yield* acquireStaging(engine, database, locks, request.layout, () => moved)
    const shape = Layout.insertShape(request.layout)
    const staging = pooled.name
    // A pooled staging table that vanished (its database was dropped since) is made again
    // before the first chunk goes in; after that, a missing table is a failure.
    let mayRecreate = !pooled.created

    const insertChunk = (chunk: Chunk) => {
      const attempt = EngineSql.insertParts(
        engine,
        new InsertRequest({
          database,
          table: staging,
          format: shape.format,
          columns: shape.columns,
          queryId: crypto.randomUUID(),
          settings: shape.settings
        }),
        chunk.parts
      )
      const retrying = mayRecreate
        ? Effect.catchIf(
            attempt,
            (error) => isEngineError(error) && error.type === "UNKNOWN_TABLE",
            () => Effect.zipRight(pooled.create, attempt)
          )
        : attempt
      mayRecreate = false
      return retrying.pipe(
        Effect.catchIf(isEngineError, (error) => refusal(chunk, error)),
        // Only the body's fault is a 400; an engine in trouble is ours (a 500).
        Effect.catchIf(isEngineError, (error) => Effect.die(error))
      )
    }

    yield* Stream.runForEach(chunks, insertChunk)
    const inserted = records()
    const found = yield* Effect.orDie(stagingPaths(engine, database, staging))
    const unusable = unusablePath(found)
    if (unusable !== undefined) return yield* unusable
    const state = locks.stateOf(database, table)
    const hashed = yield* token

    const moveIn = EngineSql.command(
      engine,
      Option.match(hashed, {
        onNone: () =>
          `ALTER TABLE ${Layout.qualified(database, table)} ATTACH PARTITION tuple() FROM ${Layout.qualified(database, staging)}`,
        onSome: (token) => copySql(database, table, staging, request.layout, token)
      })
    ).pipe(
      Effect.tap(() => {
        moved = true
      })
    )

    const publish: Effect.Effect<number, PublishError> = Effect.gen(function* () {
      if (Option.isSome(hashed)) {
        const seen = yield* checkToken(engine, database, table, hashed.value)
        if (Option.isSome(seen)) return seen.value
      }
      if (state.columns === undefined) {
        yield* tables.create(engine, database, table, request.layout)
        yield* EngineSql.command(engine, InsertTokens.rememberBlocksSql(database, table))
        state.columns = yield* knownPaths(engine, database, table)
      }
      const mixed = yield* mergePaths(engine, database, table, found, state.columns).pipe(
        Effect.catchIf(isTooWide, () => Effect.fail(tooWide(table)))
      )
      yield* rememberPaths(engine, database, table, state.columns)
      yield* moveIn
      if (mixed) yield* events.publish({ database, table })
      if (Option.isSome(hashed)) {
        const { token: value, hash } = hashed.value
        yield* InsertTokens.record(engine, database, table, value, hash, inserted)
      }
      return inserted
    })

    // A failure may come from a stale cache (the table or database was dropped): retry once.
    const forget = Effect.sync(() => {
      state.columns = undefined
    })
    const locked = state.lock.withPermits(1)(
      publish.pipe(
        Effect.catchTag("EngineError", () => Effect.zipRight(forget, publish)),
        Effect.catchTag("EngineError", (error) => Effect.zipRight(forget, Effect.die(error)))
      )
    )
    // Nothing to change and no token to check: the columns for every path already exist
    // (they are known only once added), so the rows can move in without waiting for the
    // table's lock. Any failure takes the locked path, which starts from the engine again.
    const columns = state.columns
    if (Option.isNone(hashed) && columns !== undefined && !addsPaths(found, columns)) {
      return yield* moveIn.pipe(
        Effect.as(inserted),
        Effect.catchTag("EngineError", () => locked)
      )
    }
    return yield* locked
  })
