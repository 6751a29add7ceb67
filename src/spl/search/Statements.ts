/**
 * Running a search's statements as sluice's own (`QueryRunner.runCompiledRows`: no hints,
 * no SQL size limit; the guard, the limits and cancel by id as a user's query), each a `JSON`
 * result read whole and decoded once. Statements run one after another under the
 * search's query id, so a cancel stops whichever is running and the search fails with it.
 */
import { Effect, Schema } from "effect"
import type { ClusterScope } from "../../../domain/Authorization.js"
import type { DatabaseName } from "../../../domain/Ids.js"
import { CompiledStatement } from "../../../domain/QueryRunner.js"
import type { CompiledRows, QueryRunner } from "../../../domain/QueryRunner.js"
import type { Context } from "effect"
import { SPL_EVENTS_TABLE } from "../../../domain/SplEvent.js"

/** A count as the engine writes it: a number, or a 64-bit one quoted. */
export const EngineNumber = Schema.Union(Schema.Number, Schema.NumberFromString)

export interface Target {
  readonly runner: Context.Tag.Service<QueryRunner>
  readonly scope: ClusterScope
  readonly database: DatabaseName
  readonly queryId: string
}

/** What a search's statements read, for the request log. */
const READS_EVENTS: ReadonlyArray<string> = [SPL_EVENTS_TABLE]

/** `sql`'s rows; `tables`: what it reads (the events, unless it only describes them). */
export const runJson = (target: Target, sql: string, tables = READS_EVENTS) =>
  target.runner.runCompiledRows(
    target.scope,
    target.database,
    new CompiledStatement({ sql, queryId: target.queryId, tables })
  )

/** The rows of `result` decoded with `row`; a row of another shape is a defect (our SQL). */
export const rowsAs = <A, I>(row: Schema.Schema<A, I>, result: CompiledRows) =>
  Schema.decodeUnknown(Schema.Array(row))(result.data).pipe(Effect.orDie)
