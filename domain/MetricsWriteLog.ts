/**
 * Where the metrics-app keeps a remote write it has accepted until the write is in the
 * cluster's engine: a remote write is acknowledged once it is here, as Prometheus
 * acknowledges once its head and WAL hold it, and the engine takes accepted writes in
 * batches behind it. Writes that arrive in another form (OTLP metrics) are logged as a
 * remote-write body too, so one decoder replays them all.
 */
import { Context, Schema } from "effect"
import type { Effect } from "effect"
import { ClusterId, DatabaseName } from "./Ids.js"

/** A cluster's database: one log, one order of writes. */
export class SeriesDatabase extends Schema.Class<SeriesDatabase>("SeriesDatabase")({
  clusterId: ClusterId,
  database: DatabaseName
}) {}

/** One accepted write in the log. */
export class LoggedWrite extends Schema.Class<LoggedWrite>("LoggedWrite")({
  where: SeriesDatabase,
  /** Orders writes of one database, oldest first. */
  id: Schema.String
}) {}

export class MetricsWriteLog extends Context.Tag("sluice/MetricsWriteLog")<
  MetricsWriteLog,
  {
    /** Holds `body` (a snappy remote-write body) until released; kept when this returns. */
    readonly append: (where: SeriesDatabase, body: Uint8Array) => Effect.Effect<LoggedWrite>
    /** The engine holds these writes: the log forgets them. */
    readonly release: (writes: ReadonlyArray<LoggedWrite>) => Effect.Effect<void>
    /** The cluster, or one database of it, is deleted: its writes are dropped, released or not. */
    readonly forget: (cluster: ClusterId, database?: DatabaseName) => Effect.Effect<void>
    /** Every write not released, oldest first per database: what a restart replays. */
    readonly unreleased: Effect.Effect<
      ReadonlyArray<{ readonly write: LoggedWrite; readonly body: Uint8Array }>
    >
  }
>() {}
