/**
 * The typed tables OTLP rows land in, created on first insert: `{t}` for traces or
 * logs, `{t}_gauge` … `{t}_summary` for metrics (the exporter's prefix naming).
 */
import { Effect, Schema } from "effect"
import type { AnalyticalEngine, EngineError } from "../../domain/Engine.js"
import * as EngineSql from "../tables/EngineSql.js"
import {
  LOGS_COLUMNS,
  LOGS_INDEXES,
  LOGS_ORDER,
  LOGS_PARTITION,
  METRIC_COLUMNS,
  METRIC_KINDS,
  METRICS_ORDER,
  METRICS_PARTITION,
  TRACES_COLUMNS,
  TRACES_INDEXES,
  TRACES_ORDER,
  TRACES_PARTITION
} from "./OtlpTableDdl.js"
import { quoteString } from "../engine/Sql.js"
import * as TableDdl from "../engine/TableDdl.js"

export interface TableShape {
  readonly columns: string
  readonly indexes?: string
  readonly partitionBy: string
  readonly orderBy: string
}

export const TRACES: TableShape = {
  columns: TRACES_COLUMNS,
  indexes: TRACES_INDEXES,
  partitionBy: TRACES_PARTITION,
  orderBy: TRACES_ORDER
}
export const LOGS: TableShape = {
  columns: LOGS_COLUMNS,
  indexes: LOGS_INDEXES,
  partitionBy: LOGS_PARTITION,
  orderBy: LOGS_ORDER
}
export const metricTables = (table: string) =>
  METRIC_KINDS.map((kind) => ({
    kind,
    table: `${table}_${kind}`,
    shape: {
      columns: METRIC_COLUMNS[kind],
      partitionBy: METRICS_PARTITION,
      orderBy: METRICS_ORDER
    }
  }))

export const createSql = (
  topology: TableDdl.Topology,
  database: string,
  table: string,
  shape: TableShape,
  createdAt: string
) =>
  TableDdl.createTable(topology, {
    database,
    table,
    ...shape,
    engine: "MergeTree",
    comment: JSON.stringify({ created_at: createdAt })
  })

export const create = (
  engine: AnalyticalEngine,
  database: string,
  tables: ReadonlyArray<{ readonly table: string; readonly shape: TableShape }>
) =>
  Effect.forEach(tables, ({ table, shape }) =>
    EngineSql.commands(engine, createSql(engine, database, table, shape, new Date().toISOString()))
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
