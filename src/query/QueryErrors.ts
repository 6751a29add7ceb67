/** Engine failures of a user's query as `QueryFailure`s whose hints say what to change. */
import { Effect, Stream } from "effect"
import { ENGINE_UNREACHABLE, EngineQuery } from "../../domain/Engine.js"
import type { AnalyticalEngine, EngineError } from "../../domain/Engine.js"
import { QueryRefused, Unavailable } from "../../domain/Errors.js"
import type { QueryFailure } from "../../domain/QueryRunner.js"
import { quoteString } from "../engine/Sql.js"

export interface QueryLimits {
  readonly timeoutSeconds: number
  readonly maxResultBytes: number
}

export const READ_ONLY_HINT =
  "Only read-only statements run here: SELECT, WITH, EXPLAIN, DESCRIBE, SHOW, EXISTS — no writes, DDL, setting changes, or table functions that reach files, URLs or other servers."

/** Where a table's columns are listed (the list of tables names no columns). */
const DESCRIBE_HINT = "GET /v1/tables/{table} lists a table's columns."

// The engine's own suggestion names tables of other databases (`system.one`). On a
// shared server the engine's database names carry the cluster's prefix, which is not
// the user's business (the user wrote the name without it). A function's failure ends
// with the step of the engine's plan that ran it (`while executing 'FUNCTION
// throwIf(1_UInt8 :: 1, …) -> … UInt8 : 3'`), which says nothing the SQL does not.
const cleaned = (message: string, databasePrefix: string) =>
  (databasePrefix === "" ? message : message.replaceAll(databasePrefix, ""))
    .replace(/\s*Maybe you meant [^?]*\?\.?/g, "")
    .replace(/\.?:? while executing 'FUNCTION .*'\.?$/s, ".")
    .replace(/^default: /, "")
    .trim()

/** The user tables of `engineDatabase`, for a hint. */
const tablesOf = (engine: AnalyticalEngine, engineDatabase: string) =>
  engine
    .query(
      new EngineQuery({
        sql: `SELECT name FROM system.tables WHERE database = ${quoteString(engineDatabase)} AND NOT startsWith(name, '__') ORDER BY name`,
        format: "TabSeparated",
        queryId: crypto.randomUUID(),
        settings: { readonly: 1 }
      })
    )
    .pipe(
      Stream.decodeText(),
      Stream.mkString,
      Effect.map((text) => text.split("\n").filter((line) => line.length > 0)),
      Effect.orElseSucceed((): ReadonlyArray<string> => [])
    )

export const toQueryFailure = (
  error: EngineError,
  context: {
    readonly engine: AnalyticalEngine
    readonly database: string
    readonly engineDatabase: string
    readonly limits: QueryLimits
  }
): Effect.Effect<QueryFailure> =>
  Effect.gen(function* () {
    const message = cleaned(error.message, context.engine.databasePrefix)
    switch (error.type) {
      case "ENGINE_CLOSED":
      case ENGINE_UNREACHABLE:
        return new Unavailable({ message, hint: "Retry shortly." })
      case "UNKNOWN_TABLE": {
        const tables = yield* tablesOf(context.engine, context.engineDatabase)
        return new QueryRefused({
          message,
          hint:
            tables.length === 0
              ? `Database '${context.database}' has no tables yet; inserting into one creates it.`
              : `Tables in database '${context.database}': ${tables.join(", ")}. ${DESCRIBE_HINT}`
        })
      }
      case "TIMEOUT_EXCEEDED":
        return new QueryRefused({
          message,
          hint: `Queries may run for ${context.limits.timeoutSeconds} s (max_execution_time, set by SLUICE_QUERY_TIMEOUT_SECONDS). Narrow the query.`
        })
      case "TOO_MANY_ROWS_OR_BYTES":
        return new QueryRefused({
          message: `The result is larger than ${context.limits.maxResultBytes} bytes.`,
          hint: `Results may hold ${context.limits.maxResultBytes} bytes (max_result_bytes, result_overflow_mode=throw; set by SLUICE_QUERY_MAX_RESULT_BYTES). Add a LIMIT or aggregate.`
        })
      case "READONLY":
        return new QueryRefused({ message, hint: READ_ONLY_HINT })
      case "QUERY_WAS_CANCELLED":
        return new QueryRefused({ message: "The query was cancelled.", hint: "" })
      default:
        return new QueryRefused({
          message,
          hint: /Multi-statements/i.test(message)
            ? "Send one statement per request."
            : `Check the SQL. GET /v1/tables lists the tables; ${DESCRIBE_HINT}`
        })
    }
  })
