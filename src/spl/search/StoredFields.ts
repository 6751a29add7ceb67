/**
 * The fields the events hold, from `DESCRIBE TABLE spl_events` (the table's columns for
 * the leaf paths ingest has seen; no event is read): wildcards in `fields`, `table`,
 * `rename` and `stats … by` match them as Splunk matches every field of the events, and
 * field statistics describe them.
 */
import { Effect } from "effect"
import { quoteIdentifier } from "../../engine/Sql.js"
import { SPL_EVENTS_TABLE } from "../../../domain/SplEvent.js"
import { DescribedColumn } from "./FieldStatistics.js"
import { rowsAs, runJson } from "./Statements.js"
import type { Target } from "./Statements.js"

export const describeEvents = (target: Target) =>
  Effect.gen(function* () {
    // Reads no events: no table for the request log, as a DESCRIBE names none.
    const result = yield* runJson(target, `DESCRIBE TABLE ${quoteIdentifier(SPL_EVENTS_TABLE)}`, [])
    return { result, columns: yield* rowsAs(DescribedColumn, result) }
  })

/** Whether the database has its events table yet (its first event makes it). */
export const eventsExist = (target: Target) =>
  runJson(target, `EXISTS TABLE ${quoteIdentifier(SPL_EVENTS_TABLE)}`, []).pipe(
    Effect.map((result) => Object.values(result.data[0] ?? {}).some((v) => Number(v) === 1))
  )

/** Whether `spl` may hold a wildcard field name: one statement saved on most searches. */
export const mayMatchStoredFields = (spl: string) => spl.includes("*")
