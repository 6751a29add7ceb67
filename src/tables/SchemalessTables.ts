/**
 * Tables of one engine database, in the layout of `Layout.ts`: list, describe, drop,
 * create, and the ALIAS columns that make new leaf paths queryable. List and describe
 * also answer for the database's tables of a fixed layout (the OTLP tables).
 */
import { Effect, Option, Schema } from "effect"
import type { AnalyticalEngine } from "../../domain/Engine.js"
import type { TableKind } from "../../domain/IngestWriter.js"
import * as EngineSql from "./EngineSql.js"
import * as Layout from "./Layout.js"
import { TableEvents } from "./TableEvents.js"
import { quoteString } from "../engine/Sql.js"
import * as TableDdl from "../engine/TableDdl.js"

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

const ColumnKindRow = Schema.Struct({
  name: Schema.String,
  type: Schema.String,
  default_kind: Schema.String
})

const ColumnName = Schema.Struct({ name: Schema.String })

// Columns only the OTLP app's tables have together (src/otlp/OtlpTableDdl.ts, MetricsView.ts).
const has = (names: ReadonlySet<string>, ...wanted: ReadonlyArray<string>) =>
  wanted.every((name) => names.has(name))

/** A table's kind by the names of its columns; a table has at least one. */
export const kindOfColumns = (names: ReadonlySet<string>): TableKind => {
  if (names.size === 0) return "absent"
  if (names.has(Layout.RAW_COLUMN)) return "records"
  if (has(names, "TraceId", "SpanId", "SpanName", "Duration")) return "otlp-traces"
  if (has(names, "SeverityText", "Body", "LogAttributes")) return "otlp-logs"
  if (has(names, "MetricName", "MetricType")) return "otlp-metrics"
  if (has(names, "MetricName", "TimeUnix")) return "otlp-metric-points"
  return "fixed"
}

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

      /** What the table is (`TableKind`), told by its columns. */
      kindOf: Effect.fn("SchemalessTables.kindOf")(function* (
        engine: AnalyticalEngine,
        database: string,
        table: string
      ) {
        const columns = yield* EngineSql.rows(
          engine,
          ColumnName,
          "SELECT name FROM system.columns " +
            `WHERE database = ${quoteString(database)} AND table = ${quoteString(table)}`
        )
        return kindOfColumns(new Set(columns.map((column) => column.name)))
      }),

      describe: Effect.fn("SchemalessTables.describe")(function* (
        engine: AnalyticalEngine,
        database: string,
        table: string
      ) {
        const found = yield* EngineSql.rows(engine, TableRow, tablesSql(database, table))
        if (found[0] === undefined) return Option.none()
        const columns = yield* queryableColumns(engine, database, table)
        return Option.some({ ...summaryOf(found[0]), columns })
      }),

      drop: Effect.fn("SchemalessTables.drop")(function* (
        engine: AnalyticalEngine,
        database: string,
        table: string
      ) {
        yield* EngineSql.commands(engine, TableDdl.dropTable(engine, database, table))
        // After the table, whose constraint depends on it; a new table of the same name
        // starts with no known paths.
        yield* EngineSql.commands(
          engine,
          TableDdl.dropTable(engine, database, Layout.knownPathsTable(table))
        )
        yield* events.publish({ database, table })
      }),

      /**
       * Creates the table if it does not exist, with its known-paths table and its
       * constraints (added to a table made before them). Once per table and process:
       * an insert calls it before its first write.
       */
      create: Effect.fn("SchemalessTables.create")(function* (
        engine: AnalyticalEngine,
        database: string,
        table: string,
        layout: Layout.TableLayout = "records"
      ) {
        yield* EngineSql.commands(
          engine,
          Layout.createTableStatements(engine, database, table, new Date().toISOString(), layout)
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

const isRaw = (name: string) => name === Layout.RAW_COLUMN || name === Layout.RAW_INPUT

const byName = (a: { readonly name: string }, b: { readonly name: string }) =>
  a.name < b.name ? -1 : a.name > b.name ? 1 : 0

/**
 * The columns a query can name: a schemaless table's typed columns (the
 * events layout's `_time`, `host` …) then its leaf paths (its ALIAS columns, by name;
 * never the raw storage), else every stored or computed column of the fixed layout (the
 * OTLP tables, the metrics view), in the table's order.
 */
const queryableColumns = (engine: AnalyticalEngine, database: string, table: string) =>
  Effect.map(
    EngineSql.rows(
      engine,
      ColumnKindRow,
      "SELECT name, type, default_kind FROM system.columns " +
        `WHERE database = ${quoteString(database)} AND table = ${quoteString(table)} ` +
        "ORDER BY position"
    ),
    (all) => {
      const schemaless = all.some((column) => column.name === Layout.RAW_COLUMN)
      const queryable = schemaless
        ? [
            ...all.filter((column) => column.default_kind === "" && !isRaw(column.name)),
            ...all.filter((column) => column.default_kind === "ALIAS").sort(byName)
          ]
        : all.filter((column) => column.default_kind !== "EPHEMERAL")
      return queryable.map(({ name, type }) => ({ name, type }))
    }
  )
