/**
 * The analytical engine contract: ClickHouse reached either in-process (chDB) or over
 * HTTP (a ClickHouse server). Callers never know which. Requests are Schema classes and
 * results are byte streams, so an implementation can live in another process (one
 * worker per cluster) and forward both over a typed channel without changing callers.
 *
 * Aborting is interruption: interrupting `query`'s stream or `insert`'s effect aborts the
 * engine-side work (an implementation must also keep its connection alive until the
 * engine has really stopped).
 */
import { Context, Schema } from "effect"
import type { Effect, Scope, Stream } from "effect"
import type { ClusterPaused } from "./Errors.js"
import { ClusterId } from "./Ids.js"

/** Per-query engine settings (`clickhouse_settings`), e.g. `{ readonly: 1 }`. */
export const EngineSettings = Schema.Record({
  key: Schema.String,
  value: Schema.Union(Schema.String, Schema.Number, Schema.Boolean)
})
export type EngineSettings = typeof EngineSettings.Type

/** A statement whose result rows are returned as bytes in `format`. */
export class EngineQuery extends Schema.Class<EngineQuery>("EngineQuery")({
  sql: Schema.String,
  /** A ClickHouse output format name: `JSON`, `JSONEachRow`, `CSVWithNames` … */
  format: Schema.String,
  /** Used to cancel the query from elsewhere; unique while it runs. */
  queryId: Schema.String,
  settings: Schema.optionalWith(EngineSettings, { default: () => ({}) }),
  /** The engine database that unqualified table names resolve in. */
  database: Schema.optional(Schema.String)
}) {}

/** Raw bytes in an input `format` appended to `database.table`. */
export class InsertRequest extends Schema.Class<InsertRequest>("InsertRequest")({
  database: Schema.String,
  table: Schema.String,
  /** A ClickHouse input format name: `JSONAsObject`, `JSONEachRow`, `CSVWithNames` … */
  format: Schema.String,
  /** Optional explicit column list (`INSERT INTO t (a, b) FORMAT …`). */
  columns: Schema.optional(Schema.Array(Schema.String)),
  queryId: Schema.String,
  settings: Schema.optionalWith(EngineSettings, { default: () => ({}) })
}) {}

export class InsertSummary extends Schema.Class<InsertSummary>("InsertSummary")({
  writtenRows: Schema.Number,
  writtenBytes: Schema.Number
}) {}

/** A statement with no result rows (DDL, `SYSTEM …`). */
export class CommandRequest extends Schema.Class<CommandRequest>("CommandRequest")({
  sql: Schema.String,
  queryId: Schema.optional(Schema.String),
  settings: Schema.optionalWith(EngineSettings, { default: () => ({}) })
}) {}

/**
 * The engine refused or failed a statement. `message` is already cleaned of server
 * paths and stack traces, so it may be shown to the user.
 */
export class EngineError extends Schema.TaggedError<EngineError>()("EngineError", {
  message: Schema.String,
  /** ClickHouse's numeric error code, when the engine gave one. */
  code: Schema.optional(Schema.Number),
  /** ClickHouse's error name, e.g. `UNKNOWN_TABLE`, `READONLY`, `QUERY_WAS_CANCELLED`. */
  type: Schema.optional(Schema.String)
}) {}

/**
 * `EngineError.type` of a statement whose engine could not be reached on the way (a
 * ClickHouse server down, restarting or cut off): the caller may retry it.
 */
export const ENGINE_UNREACHABLE = "ENGINE_UNREACHABLE"

/** The engine of a cluster cannot be reached now (stopped, crashed, not provisioned). */
export class EngineUnavailable extends Schema.TaggedError<EngineUnavailable>()(
  "EngineUnavailable",
  { message: Schema.String }
) {}

/**
 * The largest body a caller hands to `insertWhole`; a longer one goes to `insert` as a
 * stream. An engine in another process takes a long streamed body in pieces of this size.
 */
export const WHOLE_INSERT_BYTES = 4 * 1024 * 1024

/** One engine: the data plane of one cluster. */
/** A result's first pieces, and the rest of it unless it ended within them. */
export interface OpenedResult {
  readonly head: ReadonlyArray<Uint8Array>
  readonly rest: Stream.Stream<Uint8Array, EngineError> | undefined
}

export interface AnalyticalEngine {
  /**
   * What this engine's database names start with: empty when the engine belongs to one
   * cluster, the cluster's namespace when clusters share a ClickHouse server.
   */
  readonly databasePrefix: string
  /**
   * The ClickHouse cluster the engine's server belongs to (`SLUICE_CLICKHOUSE_CLUSTER`),
   * whose tables are replicated and distributed: absent on one server, chDB and
   * ClickHouse Cloud.
   */
  readonly clickhouseCluster?: string
  /** Runs a statement and streams its result bytes as the engine produces them. */
  readonly query: (request: EngineQuery) => Stream.Stream<Uint8Array, EngineError>
  /**
   * Runs a statement and returns its whole result, for a reader that needs it whole (a
   * `JSON` document): one call where a stream costs a pull per piece and an end. Fails
   * with `TOO_MANY_ROWS_OR_BYTES` once the result passes `maxBytes`.
   */
  readonly queryWhole: (
    request: EngineQuery,
    maxBytes: number
  ) => Effect.Effect<Uint8Array, EngineError>
  /**
   * Runs a statement and reads its first `pieces` pieces in one call; the rest, when the
   * result did not end within them, streams as `query` would. Where a result that fits
   * in those pieces (most small ones) is then answered whole, this spares the stream's
   * pull per piece and end. The statement belongs to the scope: closing it before the
   * result ends stops the query. Optional: callers fall back to `query`.
   */
  readonly queryOpen?: (
    request: EngineQuery,
    pieces: number
  ) => Effect.Effect<OpenedResult, EngineError, Scope.Scope>
  /** Streams `body` into a table; the body is never buffered whole. */
  readonly insert: <E>(
    request: InsertRequest,
    body: Stream.Stream<Uint8Array, E>
  ) => Effect.Effect<InsertSummary, EngineError | E>
  /**
   * Inserts a body its caller already holds whole: one engine call, where `insert` runs a
   * stream (each run a cost of its own, and a small insert met two on its way to a worker
   * and one in it).
   */
  readonly insertWhole: (
    request: InsertRequest,
    bytes: Uint8Array
  ) => Effect.Effect<InsertSummary, EngineError>
  readonly command: (request: CommandRequest) => Effect.Effect<void, EngineError>
  /** Stops a running query; `false` when no query with that id is running. */
  readonly cancel: (queryId: string) => Effect.Effect<boolean, EngineError>
}

/** Finds the engine of a cluster, waking it if it idled. */
export class Engines extends Context.Tag("sluice/Engines")<
  Engines,
  {
    readonly forCluster: (
      cluster: ClusterId
    ) => Effect.Effect<AnalyticalEngine, EngineUnavailable | ClusterPaused>
  }
>() {}
