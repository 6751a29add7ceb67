/**
 * Insert tokens (`insert_deduplication_token`, `idempotency-key`): a token seen with
 * the same body answers the first insert's count and inserts nothing; with another body
 * it is a conflict. Kept for a day in a service table of each engine database, next to
 * the data it protects.
 *
 * The token's row is written after the rows it protects, so an engine that dies between
 * the two leaves rows without their token. The rows themselves are therefore written with
 * the engine's own deduplication (a table remembers the last `DEDUPLICATION_WINDOW`
 * token-carrying blocks, in the same step that adds a block's part): a retry of that body
 * writes nothing again, and then records the token.
 */
import { Effect, Option, Schema } from "effect"
import type { AnalyticalEngine } from "../../domain/Engine.js"
import { InsertRequest } from "../../domain/Engine.js"
import * as EngineSql from "./EngineSql.js"
import * as Layout from "./Layout.js"
import { quoteString } from "../engine/Sql.js"
import * as TableDdl from "../engine/TableDdl.js"

/** An insert token with the hash of the whole body it came with. */
export interface HashedToken {
  readonly token: string
  readonly hash: string
}

const TokenRow = Schema.Struct({ body_hash: Schema.String, inserted: Schema.NumberFromString })

const ensureSql = (topology: TableDdl.Topology, database: string) =>
  TableDdl.createTable(topology, {
    database,
    table: Layout.TOKENS_TABLE,
    columns:
      "table String, token String, body_hash String, inserted UInt64, at DateTime DEFAULT now()",
    engine: "MergeTree",
    orderBy: "(table, token)",
    ttl: "at + INTERVAL 1 DAY"
  })

/** How many token-carrying blocks a table remembers (the engine's default for replicated tables). */
export const DEDUPLICATION_WINDOW = 10_000

/**
 * Gives a table its memory of token-carrying blocks; an existing table gets it too. A
 * cluster's replicated tables have it already.
 */
export const rememberBlocksSql = (
  topology: TableDdl.Topology,
  database: string,
  table: string
): ReadonlyArray<string> =>
  TableDdl.isCluster(topology)
    ? []
    : [
        TableDdl.alterTable(
          database,
          table,
          `MODIFY SETTING non_replicated_deduplication_window = ${DEDUPLICATION_WINDOW}`
        )
      ]

/** The engine's deduplication id of a body: its token and its hash, so only a retry matches. */
const blockId = (token: HashedToken) => `${token.hash}:${token.token}`

/**
 * The settings of a statement that puts a body's rows into its table: deduplicated by
 * the token when there is one, else never (two equal bodies without a token are two inserts).
 */
export const insertSettings = (token: Option.Option<HashedToken>) =>
  Option.match(token, {
    onNone: () => ({ deduplicate_insert: "disable" }),
    onSome: (hashed) => ({
      insert_deduplication_token: blockId(hashed),
      deduplicate_insert: "enable"
    })
  })

/**
 * The settings of an `INSERT … SELECT` that copies a body's rows into its table: with its
 * token, one reading thread keeps the blocks, and so their ids, the same on a retry;
 * without one, never deduplicated (as `insertSettings`).
 */
export const copySettings = (token: Option.Option<HashedToken>): ReadonlyArray<string> =>
  Option.match(token, {
    onNone: () => ["deduplicate_insert = 'disable'"],
    onSome: (hashed) => [
      `insert_deduplication_token = ${quoteString(blockId(hashed))}`,
      "deduplicate_insert_select = 'force_enable'",
      "max_threads = 1",
      "max_insert_threads = 1"
    ]
  })

export const find = (engine: AnalyticalEngine, database: string, table: string, token: string) =>
  Effect.gen(function* () {
    yield* EngineSql.commands(engine, ensureSql(engine, database))
    const found = yield* EngineSql.rows(
      engine,
      TokenRow,
      `SELECT body_hash, toString(inserted) AS inserted FROM ${Layout.qualified(database, Layout.TOKENS_TABLE)} ` +
        `WHERE table = ${quoteString(table)} AND token = ${quoteString(token)} LIMIT 1`
    )
    return Option.fromNullable(found[0])
  })

export const record = (
  engine: AnalyticalEngine,
  database: string,
  table: string,
  token: string,
  bodyHash: string,
  inserted: number
) =>
  engine.insertWhole(
    new InsertRequest({
      database,
      table: Layout.TOKENS_TABLE,
      format: "JSONEachRow",
      columns: ["table", "token", "body_hash", "inserted"],
      queryId: crypto.randomUUID()
    }),
    new TextEncoder().encode(JSON.stringify({ table, token, body_hash: bodyHash, inserted }))
  )

/** Forgets the tokens of a dropped table, so a new table of that name starts fresh. */
export const forget = (engine: AnalyticalEngine, database: string, table: string) =>
  EngineSql.commands(engine, ensureSql(engine, database)).pipe(
    Effect.zipRight(
      EngineSql.command(
        engine,
        TableDdl.deleteRows(engine, database, Layout.TOKENS_TABLE, `table = ${quoteString(table)}`)
      )
    )
  )
