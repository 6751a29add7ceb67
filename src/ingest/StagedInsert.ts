/**
 * An insert of more than one statement: the chunks go into a private staging table one
 * by one; only when the whole body went in are the new paths made columns and the
 * staging parts attached to the table in one step (`ATTACH PARTITION … FROM`, which links
 * the parts; `MOVE PARTITION` did the same but took far longer on chDB; on a ClickHouse
 * cluster they are copied instead: `copySql`). The staging table is emptied afterwards,
 * off the insert's path (Staging.ts). A rejected body leaves the table untouched.
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
import * as TableDdl from "../engine/TableDdl.js"

type PublishError = EngineError | InsertTokenReused | MalformedRecords

/**
 * A body's rows copied from its staging table instead of attached. A token-carrying body
 * is copied with the engine's deduplication (InsertTokens.ts): an attach is never
 * deduplicated, so a retry after the engine died between the attach and the token's
 * record attached the rows twice; the staging table never merges its parts (Staging.ts),
 * so a retry's copy reads the same blocks. On a ClickHouse cluster every body is copied:
 * the table is a `Distributed` one, which takes rows but no parts, and sends them to
 * their shards before the copy returns (`TableDdl.topologySettings`).
 */
const copySql = (
  topology: TableDdl.Topology,
  database: string,
  table: string,
  staging: string,
  layout: Layout.TableLayout,
  token: Option.Option<HashedToken>
) => {
  const columns = Layout.insertShape(layout, topology).columns
  const read = columns.map((column) => (column === Layout.RAW_INPUT ? Layout.RAW_COLUMN : column))
  const settings = [
    ...InsertTokens.copySettings(token),
    ...(TableDdl.isCluster(topology)
      ? Object.entries(Layout.STORED_RAW_SETTINGS).map(([name, value]) => `${name} = ${value}`)
      : [])
  ]
  return (
    `INSERT INTO ${Layout.qualified(database, table)} (${columns.map(quoteIdentifier).join(", ")}) ` +
    `SELECT ${read.map(quoteIdentifier).join(", ")} FROM ${Layout.qualified(database, staging)} ` +
    `SETTINGS ${settings.join(", ")}`
  )
}

/** The statement that makes a staged body's rows the table's: attached on one server, else copied. */
export const moveInSql = (
  topology: TableDdl.Topology,
  database: string,
  table: string,
  staging: string,
  layout: Layout.TableLayout,
  token: Option.Option<HashedToken>
) =>
  Option.isNone(token) && !TableDdl.isCluster(topology)
    ? TableDdl.attachPartitionFrom(database, table, staging)
    : copySql(topology, database, table, staging, layout, token)

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
      moveInSql(engine, database, table, staging, request.layout, hashed)
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
        yield* EngineSql.commands(engine, InsertTokens.rememberBlocksSql(engine, database, table))
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
