/**
 * The OTLP ingest API: `decodeExport` turns a request body into the decoded model (for
 * `?transform=otlp-*`, OTLP/HTTP and OTLP/gRPC alike); `insertExport` flattens it with
 * the given `OtlpTransforms` into rows of the collector ClickHouse exporter's tables and
 * inserts them (for `IngestWriter.insertExport`, the OTLP app's native endpoints).
 */
import { Effect } from "effect"
import type { AnalyticalEngine, EngineError } from "../../domain/Engine.js"
import { BadRequest } from "../../domain/Errors.js"
import type { OtlpExport } from "../../domain/OtlpModel.js"
import { createMetricsViewSql } from "./MetricsView.js"
import * as OtlpTables from "./OtlpTables.js"
import * as EngineSql from "../tables/EngineSql.js"
import { rowsJson } from "./RowJson.js"
import type { OtlpTransforms } from "../../domain/OtlpTransforms.js"

export type { OtlpExport } from "../../domain/OtlpModel.js"
export { decodeExport } from "./OtlpDecode.js"

/** One table's worth of rows, serialized before anything is inserted. */
interface Batch {
  readonly table: string
  readonly rows: number
  readonly first: object | undefined
  readonly text: string
}

const plan = (
  transforms: OtlpTransforms["Type"],
  engine: AnalyticalEngine,
  database: string,
  table: string,
  request: OtlpExport
) => {
  const batch = (name: string, rows: ReadonlyArray<object>): Batch => ({
    table: name,
    rows: rows.length,
    first: rows[0],
    text: rowsJson(rows)
  })
  switch (request.signal) {
    case "traces": {
      const flat = transforms.traces(request.request)
      return {
        flat,
        create: OtlpTables.create(engine, database, [{ table, shape: OtlpTables.TRACES }]),
        batches: [batch(table, flat.rows)]
      }
    }
    case "logs": {
      const flat = transforms.logs(request.request)
      return {
        flat,
        create: OtlpTables.create(engine, database, [{ table, shape: OtlpTables.LOGS }]),
        batches: [batch(table, flat.rows)]
      }
    }
    case "metrics": {
      const flat = transforms.metrics(request.request)
      const rows = flat.rows
      const tables = OtlpTables.metricTables(table)
      // The five tables, then `table` itself over them (MetricsView.ts).
      const create = OtlpTables.create(engine, database, tables).pipe(
        Effect.zipRight(
          EngineSql.command(
            engine,
            createMetricsViewSql(engine, database, table, new Date().toISOString())
          )
        )
      )
      return { flat, create, batches: tables.map((t) => batch(t.table, rows[t.kind])) }
    }
  }
}

/**
 * Flattens `request` and inserts its rows into `table` of `database` (for metrics,
 * the five tables `{table}_gauge`, `_sum`, `_histogram`, `_exponential_histogram`,
 * `_summary`, and `{table}` the view over them), creating them on first use. Invalid
 * records are dropped and counted in `rejected`; nothing is inserted when the request
 * fails.
 */
// No span of its own: each caller's has one.
export const insertExport = Effect.fnUntraced(function* (
  transforms: OtlpTransforms["Type"],
  engine: AnalyticalEngine,
  database: string,
  table: string,
  request: OtlpExport
) {
  const signal = request.signal
  const { flat, create, batches } = plan(transforms, engine, database, table, request)
  const insert = (batch: Batch) =>
    OtlpTables.insertRows(engine, database, batch.table, batch.text).pipe(
      Effect.catchIf(
        (error: EngineError) => error.type === "UNKNOWN_TABLE",
        () =>
          create.pipe(
            Effect.zipRight(OtlpTables.insertRows(engine, database, batch.table, batch.text))
          )
      )
    )
  let accepted = 0
  for (const batch of batches) {
    if (batch.rows === 0) continue
    yield* insert(batch).pipe(
      Effect.catchAll((error) =>
        // A table of that name with other columns is the caller's to fix; anything else
        // is the engine's failure.
        OtlpTables.hasColumns(engine, database, batch.table, batch.first ?? {}).pipe(
          Effect.flatMap((fits) =>
            fits
              ? Effect.die(error)
              : new BadRequest({
                  message: `Table '${batch.table}' exists without the OTLP ${signal} columns.`,
                  hint: "Send OTLP data to a new table name, or to a table an earlier OTLP insert created."
                })
          )
        )
      ),
      Effect.catchTag("EngineError", (error) => Effect.die(error))
    )
    // Counted here: an insert is all or nothing, and not every engine reports its rows.
    accepted += batch.rows
  }
  return { accepted, rejected: flat.rejected, message: flat.message }
})
