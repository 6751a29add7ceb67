/**
 * A body insert: the records stream into a private staging table chunk by chunk; only
 * when the whole body went in are the new paths made columns and the staging parts
 * attached to the table in one step (`ATTACH PARTITION … FROM`, which links the parts;
 * `MOVE PARTITION` did the same but took 20–200 ms where this takes ~4, measured on
 * chDB). The staging table is emptied afterwards, off the insert's path (Staging.ts).
 * A rejected body leaves the table untouched.
 */
import { Effect, Option, Stream } from "effect"
import type { AnalyticalEngine } from "../../domain/Engine.js"
import { EngineError, InsertRequest } from "../../domain/Engine.js"
import { InsertTokenReused, MalformedRecords } from "../../domain/Errors.js"
import type { InsertToken } from "../../domain/IngestWriter.js"
import * as EngineSql from "../tables/EngineSql.js"
import * as InsertTokens from "../tables/InsertTokens.js"
import * as Layout from "../tables/Layout.js"
import {
  MAX_PATH_BYTES,
  addsPaths,
  knownPaths,
  mergePaths,
  overlongPath,
  stagingPaths
} from "../tables/LeafPaths.js"
import type { SchemalessTables } from "../tables/SchemalessTables.js"
import type { TableEvents } from "../tables/TableEvents.js"
import type { TableLocks } from "../tables/TableLocks.js"
import type { Chunk } from "./RecordSplitter.js"
import { RecordSplitter, SplitError, locate } from "./RecordSplitter.js"
import { acquireStaging } from "./Staging.js"

/** About how much of a body goes into the staging table per statement. */
export const CHUNK_BYTES = 4 * 1024 * 1024

export interface BodyInsertRequest<E> {
  readonly engine: AnalyticalEngine
  /** The engine's name of the database. */
  readonly database: string
  readonly table: string
  /** Decoded body bytes. */
  readonly body: Stream.Stream<Uint8Array, E>
  /** NDJSON: one object per line, no top-level array. */
  readonly lines: boolean
  readonly token: InsertToken | undefined
  /** Of the table, and so of its staging tables and the rows sent (Layout.ts). */
  readonly layout: Layout.TableLayout
}

/** What every insert shares, taken once when the writer is built. */
export interface BodyInsertDependencies {
  readonly tables: SchemalessTables
  readonly locks: TableLocks
  readonly events: TableEvents
}

const ROW = /\(at row (\d+)\)/
// The engine refuses an ALTER whose statement, or the table definition it would leave,
// passes `max_query_size`: too many new columns at once, or in all.
const TOO_WIDE = /max_query_size/

type PublishError = EngineError | InsertTokenReused | MalformedRecords

const malformed = (chunk: Chunk, error: EngineError) => {
  const row = Number(ROW.exec(error.message)?.[1] ?? "1")
  const { line, record } = locate(chunk, row)
  const detail = error.message
    .replace(ROW, "")
    .replace(/:?\s*While executing \w+\.?/, "")
    .trim()
  return new MalformedRecords({
    message: `Malformed JSON in record ${record} (line ${line}): ${detail}`,
    hint: "Send one JSON object, an array of objects, or one object per line (application/x-ndjson). Nothing was inserted."
  })
}

const splitFailure = (error: unknown) =>
  error instanceof SplitError
    ? new MalformedRecords({
        message: `Malformed body: ${error.message}.`,
        hint: "Send one JSON object, an array of objects, or one object per line (application/x-ndjson). Nothing was inserted."
      })
    : new MalformedRecords({ message: String(error) })

export const insertBody = Effect.fn("BodyInsert.insert")(function* <E>(
  { tables, locks, events }: BodyInsertDependencies,
  request: BodyInsertRequest<E>
) {
  const { engine, database, table } = request
  const orDie = <A, R>(effect: Effect.Effect<A, EngineError, R>) => Effect.orDie(effect)
  let moved = false

  const pooled = yield* acquireStaging(engine, database, locks, request.layout, () => moved)
  const shape = Layout.insertShape(request.layout)
  const staging = pooled.name
  // A pooled staging table that vanished (its database was dropped since) is made again
  // before the first chunk goes in; after that, a missing table is a failure.
  let mayRecreate = !pooled.created

  const splitter = new RecordSplitter(CHUNK_BYTES, request.lines)
  const insertChunk = (chunk: Chunk) => {
    const attempt = engine.insert(
      new InsertRequest({
        database,
        table: staging,
        format: shape.format,
        columns: shape.columns,
        queryId: crypto.randomUUID()
      }),
      Stream.fromIterable(chunk.parts)
    )
    const retrying = mayRecreate
      ? Effect.catchIf(
          attempt,
          (error) => error instanceof EngineError && error.type === "UNKNOWN_TABLE",
          () => Effect.zipRight(pooled.create, attempt)
        )
      : attempt
    mayRecreate = false
    return retrying.pipe(
      Effect.catchIf(
        (error): error is EngineError => error instanceof EngineError,
        // Only the body's fault is a 400; an engine in trouble is ours (a 500).
        (error) =>
          ROW.test(error.message) || /JSON|parse/i.test(error.message)
            ? Effect.fail(malformed(chunk, error))
            : Effect.die(error)
      )
    )
  }

  yield* request.body.pipe(
    Stream.mapConcatEffect((bytes) =>
      Effect.try({ try: () => splitter.push(bytes), catch: splitFailure })
    ),
    Stream.concat(
      Stream.flatMap(
        Stream.fromEffect(Effect.try({ try: () => splitter.end(), catch: splitFailure })),
        Stream.fromIterable
      )
    ),
    Stream.runForEach(insertChunk)
  )
  const inserted = splitter.totalRecords

  const found = yield* orDie(stagingPaths(engine, database, staging))
  const overlong = overlongPath(found)
  if (overlong !== undefined) {
    return yield* new MalformedRecords({
      message: `A field name is ${Buffer.byteLength(overlong)} bytes long (${overlong.slice(0, 40)}…); at most ${MAX_PATH_BYTES} are accepted.`,
      hint: "Use shorter keys (dotted paths count whole). Nothing was inserted."
    })
  }
  const state = locks.stateOf(database, table)
  const token =
    request.token === undefined
      ? Option.none()
      : Option.some({ token: request.token.token, hash: yield* request.token.bodyHash })

  const moveIn = EngineSql.command(
    engine,
    `ALTER TABLE ${Layout.qualified(database, table)} ATTACH PARTITION tuple() FROM ${Layout.qualified(database, staging)}`
  ).pipe(
    Effect.tap(() => {
      moved = true
    })
  )

  const publish: Effect.Effect<number, PublishError> = Effect.gen(function* () {
    if (Option.isSome(token)) {
      const seen = yield* InsertTokens.find(engine, database, table, token.value.token)
      if (Option.isSome(seen)) {
        if (seen.value.body_hash === token.value.hash) return seen.value.inserted
        return yield* new InsertTokenReused({
          message: "This insert token was already used with a different body.",
          hint: "Use a new token for new data; reuse a token only to retry the same body."
        })
      }
    }
    if (state.columns === undefined) {
      yield* tables.create(engine, database, table, request.layout)
      state.columns = yield* knownPaths(engine, database, table)
    }
    const mixed = yield* mergePaths(engine, database, table, staging, found, state.columns).pipe(
      Effect.catchIf(
        (error) => TOO_WIDE.test(error.message),
        () =>
          new MalformedRecords({
            message: `Table '${table}' cannot take this insert's new fields: its definition would pass the engine's 256 KiB limit.`,
            hint: "Send fewer distinct fields or shorter names, or keep rarely queried data in one string field. Nothing was inserted."
          })
      )
    )
    yield* moveIn
    if (mixed) yield* events.publish({ database, table })
    if (Option.isSome(token)) {
      const { token: value, hash } = token.value
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
  if (Option.isNone(token) && columns !== undefined && !addsPaths(found, columns)) {
    return yield* moveIn.pipe(
      Effect.as(inserted),
      Effect.catchTag("EngineError", () => locked)
    )
  }
  return yield* locked
}, Effect.scoped)
