/**
 * The user-level SQL path: one read-only statement in a cluster's database, under the
 * size, time and result limits, registered for cancel by its id while it runs, with the
 * result's hints. What it answers is bytes in the asked-for format,
 * never a transport's response.
 */
import { Context, Schema } from "effect"
import type { Effect, Stream } from "effect"
import { QueryFormat, resultFields } from "./api/QueryApi.js"
import type { ClusterScope } from "./Authorization.js"
import type {
  ClusterPaused,
  Conflict,
  Forbidden,
  NotFound,
  QueryRefused,
  Unavailable
} from "./Errors.js"
import type { DatabaseName } from "./Ids.js"

/**
 * The formats of `POST /v1/query`, and `RowBinary` and `Native` for callers inside the
 * program that read numbers straight off the bytes (PromQL's reads; `Native` gives each
 * column whole, for results of long arrays): not offered over HTTP.
 */
export const StatementFormat = Schema.Union(QueryFormat, Schema.Literal("RowBinary", "Native"))
export type StatementFormat = typeof StatementFormat.Type

export class QueryStatement extends Schema.Class<QueryStatement>("QueryStatement")({
  sql: Schema.String,
  format: StatementFormat,
  /** The caller's name for the query, for cancel: unique in its database while it runs. */
  queryId: Schema.String,
  /**
   * The caller reads the whole result anyway (up to the result-size limit): it is then
   * asked for in one piece, one round trip to a cluster's engine where a stream takes
   * three. `JSON` always is.
   */
  whole: Schema.optional(Schema.Boolean)
}) {}

/**
 * A statement sluice compiled itself (an SPL search's, a PromQL read's): it skips the
 * user's SQL size limit and gets no hints, but runs as a user's statement does in every
 * other way: the guard (read-only, the reviewed function catalog), the cluster's limits,
 * the result-size limit and the query timeout, registered for cancel by its id.
 */
export class CompiledStatement extends Schema.Class<CompiledStatement>("CompiledStatement")({
  sql: Schema.String,
  format: Schema.optionalWith(StatementFormat, { default: () => "JSON" }),
  /** Several statements may share one id (one search's): each runs while none other does. */
  queryId: Schema.String,
  /** The tables it reads, for the request log: its SQL is not lexed for them. */
  tables: Schema.Array(Schema.String)
}) {}

/** A `JSON` result as the engine wrote it, decoded once and not reshaped. */
export const CompiledRows = Schema.Struct(resultFields)
export type CompiledRows = typeof CompiledRows.Type

/** Why a query failed: refused (the caller's to fix), the cluster paused, or the engine unavailable. */
export type QueryFailure = QueryRefused | ClusterPaused | Unavailable

/**
 * A result read whole: a `JSON` document, or a streamed format that ended within the
 * engine's first pieces.
 */
export interface WholeResult {
  readonly _tag: "Whole"
  readonly queryId: string
  readonly hints: ReadonlyArray<string>
  readonly body: Uint8Array
}

/**
 * A longer result: the pieces read before answering, then the rest as the engine makes
 * them. The rest may still fail (cancelled, past a limit); running it to its end, or
 * interrupting it, ends the query.
 */
export interface StreamedResult {
  readonly _tag: "Streamed"
  readonly queryId: string
  readonly hints: ReadonlyArray<string>
  readonly head: ReadonlyArray<Uint8Array>
  readonly rest: Stream.Stream<Uint8Array, QueryFailure>
}

export type QueryOutput = WholeResult | StreamedResult

export class QueryRunner extends Context.Tag("sluice/QueryRunner")<
  QueryRunner,
  {
    /**
     * Runs `statement` in `database` of the scope's cluster. `Forbidden`: it reaches
     * outside the cluster (files, URLs, other servers); `Conflict`: its id is running.
     */
    readonly run: (
      scope: ClusterScope,
      database: DatabaseName,
      statement: QueryStatement
    ) => Effect.Effect<QueryOutput, QueryFailure | Forbidden | Conflict>
    /** Stops the running query of that id started in the same scope and database. */
    readonly cancel: (
      scope: ClusterScope,
      database: DatabaseName,
      queryId: string
    ) => Effect.Effect<void, NotFound | Unavailable>
    /**
     * Runs a statement sluice compiled (`CompiledStatement`) and answers its result
     * whole, in its format, as the engine made it. `Conflict`: its id is running;
     * `QueryRefused`/`Forbidden`: the guard refused it (a compiler's slip).
     */
    readonly runCompiled: (
      scope: ClusterScope,
      database: DatabaseName,
      statement: CompiledStatement
    ) => Effect.Effect<Uint8Array, QueryFailure | Forbidden | Conflict>
    /** `runCompiled` asking for `JSON` whatever the statement's format, the document decoded. */
    readonly runCompiledRows: (
      scope: ClusterScope,
      database: DatabaseName,
      statement: CompiledStatement
    ) => Effect.Effect<CompiledRows, QueryFailure | Forbidden | Conflict>
  }
>() {}
