/**
 * Running a search's statements through `QueryRunner` (the user-level SQL path: guard,
 * limits, read-only, cancel by id), each as a `JSON` result read whole and decoded.
 * Statements run one after another under the search's query id, so a cancel stops
 * whichever is running and the search fails with it.
 */
import { Effect, Schema } from "effect"
import { QueryResult as JsonResult } from "../../../domain/api/QueryApi.js"
import type { ClusterScope } from "../../../domain/Authorization.js"
import type { DatabaseName } from "../../../domain/Ids.js"
import { QueryStatement } from "../../../domain/QueryRunner.js"
import type { QueryRunner } from "../../../domain/QueryRunner.js"
import type { Context } from "effect"

const decodeResult = Schema.decodeUnknown(Schema.parseJson(JsonResult))

/** A count as the engine writes it: a number, or a 64-bit one quoted. */
export const EngineNumber = Schema.Union(Schema.Number, Schema.NumberFromString)

export interface Target {
  readonly runner: Context.Tag.Service<QueryRunner>
  readonly scope: ClusterScope
  readonly database: DatabaseName
  readonly queryId: string
}

export const runJson = (target: Target, sql: string) =>
  Effect.gen(function* () {
    const statement = new QueryStatement({ sql, format: "JSON", queryId: target.queryId })
    const result = yield* target.runner.run(target.scope, target.database, statement)
    // A JSON result is always read whole; a stream would be a broken promise of the runner.
    if (result._tag !== "Whole") return yield* Effect.dieMessage("a JSON result was streamed")
    return yield* decodeResult(Buffer.from(result.body).toString("utf8")).pipe(Effect.orDie)
  })

/** The rows of `result` decoded with `row`; a row of another shape is a defect (our SQL). */
export const rowsAs = <A, I>(row: Schema.Schema<A, I>, result: JsonResult) =>
  Schema.decodeUnknown(Schema.Array(row))(result.data).pipe(Effect.orDie)
