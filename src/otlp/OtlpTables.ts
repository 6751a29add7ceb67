/**
 * The typed tables OTLP rows land in, created on first insert: `{t}` for traces or
 * logs, `{t}_gauge` … `{t}_summary` for metrics (the exporter's prefix naming).
 */
import { Effect, Schema } from "effect"
import type { AnalyticalEngine, EngineError } from "../../domain/Engine.js"
import * as EngineSql from "../tables/EngineSql.js"
import * as Layout from "../tables/Layout.js"
import {
  LOGS_COLUMNS,
  LOGS_ORDER,
  METRIC_COLUMNS,
  METRIC_KINDS,
  METRICS_ORDER,
  TRACES_COLUMNS,
  TRACES_ORDER
} from "./OtlpTableDdl.js"
import { quoteString } from "../engine/Sql.js"

export interface TableShape {
  readonly columns: string
  readonly order: string
}

export const TRACES: TableShape = { columns: TRACES_COLUMNS, order: TRACES_ORDER }
export const LOGS: TableShape = { columns: LOGS_COLUMNS, order: LOGS_ORDER }
export const metricTables = (table: string) =>
  METRIC_KINDS.map((kind) => ({
    kind,
    table: `${table}_${kind}`,
    shape: { columns: METRIC_COLUMNS[kind], order: METRICS_ORDER }
  }))

const createSql = (database: string, table: string, shape: TableShape) =>
  `CREATE TABLE IF NOT EXISTS ${Layout.qualified(database, table)} (${shape.columns}\n) ` +
  `ENGINE = MergeTree ${shape.order} ` +
  `COMMENT ${quoteString(JSON.stringify({ created_at: new Date().toISOString() }))}`

export const create = (
  engine: AnalyticalEngine,
  database: string,
  tables: ReadonlyArray<{ readonly table: string; readonly shape: TableShape }>
) =>
  Effect.forEach(tables, ({ table, shape }) =>
    EngineSql.command(engine, createSql(database, table, shape))
  )

/** Appends `JSONEachRow` text to a table that exists. */
export const insertRows = (
  engine: AnalyticalEngine,
  database: string,
  table: string,
  text: string
): Effect.Effect<void, EngineError> =>
  EngineSql.insert(engine, database, table, "JSONEachRow", text, {
    // Rows always carry every column; a missing one is a bug, not a default.
    settings: { input_format_skip_unknown_fields: 0 }
  })

const ColumnName = Schema.Struct({ name: Schema.String })

/** Whether `table` has every column of `row` (an insert into another layout fails). */
export const hasColumns = (
  engine: AnalyticalEngine,
  database: string,
  table: string,
  row: object
) =>
  EngineSql.rows(
    engine,
    ColumnName,
    "SELECT name FROM system.columns " +
      `WHERE database = ${quoteString(database)} AND table = ${quoteString(table)}`
  ).pipe(
    Effect.map((columns) => {
      const names = new Set(columns.map((column) => column.name))
      return Object.keys(row).every((name) => names.has(name))
    })
  )
