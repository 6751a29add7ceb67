/**
 * Insert tokens (`insert_deduplication_token`, `idempotency-key`): a token seen with
 * the same body answers the first insert's count and inserts nothing; with another body
 * it is a conflict. Kept for a day in a service table of each engine database, next to
 * the data it protects.
 */
import { Effect, Option, Schema } from "effect"
import type { AnalyticalEngine } from "../../domain/Engine.js"
import { InsertRequest } from "../../domain/Engine.js"
import * as EngineSql from "./EngineSql.js"
import * as Layout from "./Layout.js"
import { quoteString } from "../engine/Sql.js"

const TokenRow = Schema.Struct({ body_hash: Schema.String, inserted: Schema.NumberFromString })

const ensureSql = (database: string) =>
  `CREATE TABLE IF NOT EXISTS ${Layout.qualified(database, Layout.TOKENS_TABLE)} ` +
  "(table String, token String, body_hash String, inserted UInt64, at DateTime DEFAULT now()) " +
  "ENGINE = MergeTree ORDER BY (table, token) TTL at + INTERVAL 1 DAY"

export const find = (engine: AnalyticalEngine, database: string, table: string, token: string) =>
  Effect.gen(function* () {
    yield* EngineSql.command(engine, ensureSql(database))
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
  EngineSql.command(engine, ensureSql(database)).pipe(
    Effect.zipRight(
      EngineSql.command(
        engine,
        `DELETE FROM ${Layout.qualified(database, Layout.TOKENS_TABLE)} WHERE table = ${quoteString(table)}`
      )
    )
  )
