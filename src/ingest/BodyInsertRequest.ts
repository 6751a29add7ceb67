/** What a body insert is given, and what its two ways of inserting share. */
import { Effect, Option } from "effect"
import type { Stream } from "effect"
import type { AnalyticalEngine } from "../../domain/Engine.js"
import { InsertTokenReused } from "../../domain/Errors.js"
import type { InsertToken, TableKind } from "../../domain/IngestWriter.js"
import * as InsertTokens from "../tables/InsertTokens.js"
import type * as Layout from "../tables/Layout.js"
import type { SchemalessTables } from "../tables/SchemalessTables.js"
import type { TableEvents } from "../tables/TableEvents.js"
import type { TableLocks } from "../tables/TableLocks.js"

/** Where an insert goes, and how its rows are laid out. */
export interface InsertTarget {
  readonly engine: AnalyticalEngine
  /** The engine's name of the database. */
  readonly database: string
  readonly table: string
  readonly token: InsertToken | undefined
  /** Of the table, and so of its staging tables and the rows sent (Layout.ts). */
  readonly layout: Layout.TableLayout
}

/** A body of records as a client sent it. */
export interface BodyInsertRequest<E> extends InsertTarget {
  /** Decoded body bytes. */
  readonly body: Stream.Stream<Uint8Array, E>
  /** NDJSON: one object per line, no top-level array. */
  readonly lines: boolean
}

/** What every insert shares, taken once when the writer is built. */
export interface BodyInsertDependencies {
  readonly tables: SchemalessTables
  readonly locks: TableLocks
  readonly events: TableEvents
}

export type { HashedToken } from "../tables/InsertTokens.js"

/**
 * What `table` is: a table this process has inserted records into is known to be of the
 * records layout (its columns are cached, and only a drop forgets them), so most inserts
 * ask the engine nothing.
 */
export const tableKind = (
  { tables, locks }: BodyInsertDependencies,
  engine: AnalyticalEngine,
  database: string,
  table: string
): Effect.Effect<TableKind> =>
  locks.stateOf(database, table).columns !== undefined
    ? Effect.succeed("records")
    : Effect.orDie(tables.kindOf(engine, database, table))

/**
 * The count of the insert that used `hashed`'s token with the same body (insert nothing
 * then), none if the token is new; another body with a used token is a conflict.
 */
export const checkToken = (
  engine: AnalyticalEngine,
  database: string,
  table: string,
  hashed: InsertTokens.HashedToken
) =>
  Effect.flatMap(InsertTokens.find(engine, database, table, hashed.token), (seen) => {
    if (Option.isNone(seen)) return Effect.succeed(Option.none<number>())
    if (seen.value.body_hash === hashed.hash)
      return Effect.succeed(Option.some(seen.value.inserted))
    return Effect.fail(
      new InsertTokenReused({
        message: "This insert token was already used with a different body.",
        hint: "Use a new token for new data; reuse a token only to retry the same body."
      })
    )
  })
