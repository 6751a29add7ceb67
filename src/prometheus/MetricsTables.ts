/**
 * The metrics-app's storage, the layout of the engine's `TimeSeries`
 * table engine on plain MergeTree tables so it works alike on chDB and a server:
 * - `prometheus_series`: one row per series and write, merged per id; selection by
 *   matchers reads only this table, ordered by metric name.
 * - `prometheus_samples`: (id, timestamp, value) ordered by (id, timestamp). A retried
 *   write adds the same rows again: ReplacingMergeTree folds them on merge, and reads drop
 *   repeated (id, timestamp) pairs until then, so a retry never changes an answer.
 *
 * Samples go in as `RowBinary` (SamplesBody.ts), their values as the 64 bits of the
 * Float64, which the engine turns back into it (the ephemeral columns): a NaN's payload,
 * the stale marker's included, survives, which no JSON number and no JavaScript double
 * could promise.
 */
import { Effect, Schema } from "effect"
import type { AnalyticalEngine } from "../../domain/Engine.js"
import { quoteString } from "../engine/Sql.js"
import * as TableDdl from "../engine/TableDdl.js"
import * as EngineSql from "../tables/EngineSql.js"
import type { DecodedMetadata, DecodedWrite } from "./RemoteWriteDecode.js"
import type { SeriesRow } from "./SeriesRowsWritten.js"

export const SERIES_TABLE = "prometheus_series"
export const SAMPLES_TABLE = "prometheus_samples"
export const METADATA_TABLE = "prometheus_metadata"

/** Series and samples shard by series id, metadata by its name: each folds on that key. */
const ddl = (topology: TableDdl.Topology, database: string) =>
  [
    TableDdl.createTable(topology, {
      database,
      table: SERIES_TABLE,
      columns: `
    id UInt64,
    metric_name LowCardinality(String),
    labels SimpleAggregateFunction(any, Map(String, String)),
    min_time SimpleAggregateFunction(min, Int64),
    max_time SimpleAggregateFunction(max, Int64)
  `,
      engine: "AggregatingMergeTree",
      orderBy: "(metric_name, id)",
      shardBy: "id"
    }),
    TableDdl.createTable(topology, {
      database,
      table: SAMPLES_TABLE,
      columns: `
    id UInt64,
    time_ms Int64 EPHEMERAL,
    bits UInt64 EPHEMERAL,
    timestamp DateTime64(3, 'UTC') DEFAULT fromUnixTimestamp64Milli(time_ms, 'UTC') CODEC(DoubleDelta, ZSTD),
    value Float64 DEFAULT reinterpretAsFloat64(bits) CODEC(Gorilla, ZSTD)
  `,
      engine: "ReplacingMergeTree",
      orderBy: "(id, timestamp)",
      shardBy: "id"
    }),
    TableDdl.createTable(topology, {
      database,
      table: METADATA_TABLE,
      columns: `
    metric_family_name String,
    type LowCardinality(String),
    help String,
    unit String,
    updated DateTime64(6, 'UTC') DEFAULT now64(6)
  `,
      engine: "ReplacingMergeTree",
      parameters: "updated",
      orderBy: "metric_family_name",
      shardBy: "cityHash64(metric_family_name)"
    })
  ].flat()

export const createTables = (engine: AnalyticalEngine, database: string) =>
  EngineSql.commands(engine, ddl(engine, database))

const PartsRow = Schema.Struct({ parts: Schema.String })

/**
 * The active parts of the series and samples tables (name, rows, time), as one text:
 * any insert, merge, mutation or drop changes it (TablesVersions.ts).
 */
export const tablesParts = (engine: AnalyticalEngine, database: string) =>
  Effect.map(
    EngineSql.rows(
      engine,
      PartsRow,
      `SELECT toString(groupArray((table, name, rows, modification_time))) AS parts FROM ` +
        `(SELECT table, name, rows, modification_time FROM system.parts WHERE active ` +
        `AND database = ${quoteString(database)} ` +
        `AND table IN (${quoteString(SERIES_TABLE)}, ${quoteString(SAMPLES_TABLE)}) ` +
        `ORDER BY table, name)`
    ),
    (rows) => rows[0]?.parts ?? ""
  )

const seriesRows = (rows: ReadonlyArray<SeriesRow>) =>
  rows
    .map((row) =>
      JSON.stringify({
        id: row.id,
        metric_name: row.labels.__name__,
        labels: row.labels,
        min_time: row.minTime,
        max_time: row.maxTime
      })
    )
    .join("\n")

const metadataRows = (metadata: ReadonlyArray<DecodedMetadata>) =>
  metadata
    .map((m) =>
      JSON.stringify({ metric_family_name: m.metric, type: m.type, help: m.help, unit: m.unit })
    )
    .join("\n")

/** A write as the tables take it: its samples' rows, the series rows it adds, its metadata. */
export interface TableRows {
  readonly samples: ReadonlyArray<Uint8Array>
  readonly seriesRows: ReadonlyArray<SeriesRow>
  readonly metadata: ReadonlyArray<DecodedMetadata>
}

export const tableRows = (
  write: DecodedWrite,
  seriesRows: ReadonlyArray<SeriesRow>
): TableRows => ({
  samples: write.rows,
  seriesRows,
  metadata: write.metadata
})

/** Writes into `database`, one insert per table; series first, so a sample is never readable before the series that selects it. */
export const insertRows = (
  engine: AnalyticalEngine,
  database: string,
  writes: ReadonlyArray<TableRows>
) =>
  Effect.gen(function* () {
    const metadata = writes.flatMap((write) => write.metadata)
    if (metadata.length > 0)
      yield* EngineSql.insert(
        engine,
        database,
        METADATA_TABLE,
        "JSONEachRow",
        metadataRows(metadata)
      )
    const rows = writes.flatMap((write) => write.seriesRows)
    if (rows.length > 0)
      yield* EngineSql.insert(engine, database, SERIES_TABLE, "JSONEachRow", seriesRows(rows))
    const samples = writes.flatMap((write) => write.samples)
    if (samples.length > 0)
      yield* EngineSql.insert(engine, database, SAMPLES_TABLE, "RowBinary", samples, {
        columns: ["id", "time_ms", "bits"]
      })
  })
