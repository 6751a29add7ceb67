/**
 * Tables of one engine database, in the layout of `Layout.ts`: list, describe, drop,
 * create, and the ALIAS columns that make new leaf paths queryable.
 */
import { Effect, Option, Schema } from "effect"
import type { AnalyticalEngine } from "../../domain/Engine.js"
import * as EngineSql from "./EngineSql.js"
import * as Layout from "./Layout.js"
import { TableEvents } from "./TableEvents.js"
import { quoteString } from "../engine/Sql.js"

const TableRow = Schema.Struct({
  name: Schema.String,
  comment: Schema.String,
  total_rows: Schema.NullOr(Schema.NumberFromString),
  total_bytes: Schema.NullOr(Schema.NumberFromString)
})

const ColumnRow = Schema.Struct({
  name: Schema.String,
  type: Schema.String,
  comment: Schema.String
})

const tablesSql = (database: string, table?: string) =>
  "SELECT name, comment, total_rows, total_bytes FROM system.tables " +
  `WHERE database = ${quoteString(database)}` +
  (table === undefined ? "" : ` AND name = ${quoteString(table)}`) +
  " ORDER BY name"

const summaryOf = (row: typeof TableRow.Type) => ({
  name: row.name,
  created_at: Layout.createdAtOf(row.comment),
  total_rows: row.total_rows ?? 0,
  total_bytes: row.total_bytes ?? 0
})

export class SchemalessTables extends Effect.Service<SchemalessTables>()(
  "sluice/SchemalessTables",
  {
    effect: Effect.map(TableEvents, (events) => ({
      list: Effect.fn("SchemalessTables.list")(function* (
        engine: AnalyticalEngine,
        database: string
      ) {
        const all = yield* EngineSql.rows(engine, TableRow, tablesSql(database))
        return all.filter((row) => !Layout.isInternalTable(row.name)).map(summaryOf)
      }),

      describe: Effect.fn("SchemalessTables.describe")(function* (
        engine: AnalyticalEngine,
        database: string,
        table: string
      ) {
        const found = yield* EngineSql.rows(engine, TableRow, tablesSql(database, table))
        if (found[0] === undefined) return Option.none()
        const columns = yield* aliasColumns(engine, database, table)
        return Option.some({
          ...summaryOf(found[0]),
          columns: columns.map(({ name, type }) => ({ name, type }))
        })
      }),

      drop: Effect.fn("SchemalessTables.drop")(function* (
        engine: AnalyticalEngine,
        database: string,
        table: string
      ) {
        yield* EngineSql.command(
          engine,
          `DROP TABLE IF EXISTS ${Layout.qualified(database, table)} SYNC`
        )
        yield* events.publish({ database, table })
      }),

      create: Effect.fn("SchemalessTables.create")(function* (
        engine: AnalyticalEngine,
        database: string,
        table: string,
        layout: Layout.TableLayout = "records"
      ) {
        yield* EngineSql.command(
          engine,
          Layout.createTableSql(database, table, new Date().toISOString(), layout)
        )
      })
    })),
    dependencies: [TableEvents.Default]
  }
) {}

/** The queryable columns: one ALIAS per leaf path, with the types it has held. */
export const aliasColumns = (engine: AnalyticalEngine, database: string, table: string) =>
  EngineSql.rows(
    engine,
    ColumnRow,
    "SELECT name, type, comment FROM system.columns " +
      `WHERE database = ${quoteString(database)} AND table = ${quoteString(table)} ` +
      "AND default_kind = 'ALIAS' ORDER BY name"
  )
