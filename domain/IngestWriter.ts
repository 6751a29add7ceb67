/**
 * The ingest path: records, rows a transform flattened, or an OTLP
 * export go into a table of a cluster's database. Every way in (a body, a transform, a
 * file behind a URL; `TransformedIngest.ts`, `UrlIngest.ts`) writes through this one. It
 * answers a typed outcome, never a transport's response; a transport reads the body, its
 * headers and parameters, and renders the outcome.
 */
import { Context, Schema } from "effect"
import type { Effect, Stream } from "effect"
import type { ClusterScope } from "./Authorization.js"
import type {
  BadRequest,
  ClusterPaused,
  InsertTokenReused,
  MalformedRecords,
  Unavailable
} from "./Errors.js"
import type { DatabaseName, TableName } from "./Ids.js"
import type { OtlpExport } from "./OtlpModel.js"
import type { SplEvent } from "./SplEvent.js"

/** `json`: one object or an array of objects; `ndjson`: one object per line. */
export const RecordsFormat = Schema.Literal("json", "ndjson")
export type RecordsFormat = typeof RecordsFormat.Type

/**
 * An insert token: the same token with the same body inserts once (within a day); with
 * another body it is `InsertTokenReused`. The hash is the sender's, taken over the bytes
 * as they arrived, and read only once the whole body went through.
 */
export interface InsertToken {
  readonly token: string
  readonly bodyHash: Effect.Effect<string>
}

/** Records to insert: the body's bytes with any content-encoding undone, as they arrive. */
export interface Records<E> {
  readonly bytes: Stream.Stream<Uint8Array, E>
  readonly format: RecordsFormat
  readonly token: InsertToken | undefined
}

export interface InsertOutcome {
  readonly inserted: number
}

/** Stored OTLP rows: `rejected` records were invalid and left out (`message` says why). */
export interface ExportOutcome {
  readonly accepted: number
  readonly rejected: number
  readonly message: string | undefined
}

/** Why a write failed: the body's records, a reused token, or the cluster (paused, down). */
export type WriteFailure = MalformedRecords | InsertTokenReused | ClusterPaused | Unavailable

/**
 * What a table of a database is, for the way rows go into it: `absent`; `records`, the
 * schemaless layout every insert of records makes (events too); the OTLP app's typed
 * tables (`otlp-traces`, `otlp-logs`, `otlp-metrics` the view over the metric tables,
 * `otlp-metric-points` one of those); `fixed`, any other table of columns of its own.
 */
export const TableKind = Schema.Literal(
  "absent",
  "records",
  "otlp-traces",
  "otlp-logs",
  "otlp-metrics",
  "otlp-metric-points",
  "fixed"
)
export type TableKind = typeof TableKind.Type

/**
 * Writes into a cluster's tables; a table is created on first insert. A write is all or
 * nothing: a failed one leaves the table as it was.
 */
export class IngestWriter extends Context.Tag("sluice/IngestWriter")<
  IngestWriter,
  {
    /**
     * Streams `records` into the schemaless `table`; the body is never held whole.
     * `BadRequest`: the table has another layout (`TableKind`), and nothing is read.
     */
    readonly insertRecords: <E>(
      scope: ClusterScope,
      database: DatabaseName,
      table: TableName,
      records: Records<E>
    ) => Effect.Effect<InsertOutcome, E | WriteFailure | BadRequest>
    /**
     * Inserts rows a transform flattened (JSON object texts, one line each). The token's
     * hash is taken over the rows, so a retried batch whose envelope changed still matches.
     */
    readonly insertRows: (
      scope: ClusterScope,
      database: DatabaseName,
      table: TableName,
      rows: ReadonlyArray<string>,
      token: string | undefined
    ) => Effect.Effect<InsertOutcome, WriteFailure | BadRequest>
    /**
     * Stores events in `table` in the events layout: `_time`, `_raw` and the metadata as
     * typed columns the table is ordered by time on, and each event's fields queryable
     * by dotted name as in any schemaless table. The table is made so on first insert.
     * The events are encoded when this is called and the effect keeps only their bytes:
     * a caller that lets go of them has them collected while the engine works.
     */
    readonly insertEvents: (
      scope: ClusterScope,
      database: DatabaseName,
      table: TableName,
      events: ReadonlyArray<SplEvent>
    ) => Effect.Effect<InsertOutcome, WriteFailure>
    /** What `table` is now, so a caller can choose how its rows go in. */
    readonly tableKind: (
      scope: ClusterScope,
      database: DatabaseName,
      table: TableName
    ) => Effect.Effect<TableKind, ClusterPaused | Unavailable>
    /**
     * Flattens an OTLP export into the collector exporter's typed tables (`table`, or
     * `table_gauge`… and the view `table` over them for metrics), as the OTLP app's
     * endpoints store it. `BadRequest`: a table of that name has other columns.
     */
    readonly insertExport: (
      scope: ClusterScope,
      database: DatabaseName,
      table: TableName,
      request: OtlpExport
    ) => Effect.Effect<ExportOutcome, BadRequest | ClusterPaused | Unavailable>
  }
>() {}
