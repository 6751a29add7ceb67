/**
 * The OTLP ingest API the endpoints share (`?transform=otlp-*`, OTLP/HTTP, OTLP/gRPC):
 * `decodeExport` turns a request body into the decoded model, `ingestExport` flattens it
 * into rows of the collector ClickHouse exporter's tables and inserts them.
 *
 * Requirements: none (`R = never`); the engine and database come from the caller.
 */
import { Effect } from "effect"
import type { AnalyticalEngine } from "../../domain/Engine.js"
import { BadRequest } from "../../domain/Errors.js"
import type { OtlpExport } from "../../domain/OtlpModel.js"

export type { OtlpExport } from "../../domain/OtlpModel.js"
export { decodeExport } from "./OtlpDecode.js"
export type { OtlpEncoding, OtlpSignal } from "./OtlpDecode.js"

export interface OtlpIngestResult {
  /** Rows inserted (spans, log records, data points). */
  readonly accepted: number
  /** Records dropped as invalid (for `partialSuccess`). */
  readonly rejected: number
  /** Why records were rejected, when some were. */
  readonly message: string | undefined
}

/**
 * Flattens `request` and inserts its rows into `table` of `database` (for metrics,
 * the five tables `{table}_gauge`, `_sum`, `_histogram`, `_exponential_histogram`,
 * `_summary`), creating them on first use. Invalid records are dropped and counted in
 * `rejected`; nothing is inserted when the request fails.
 */
export const ingestExport = (
  _engine: AnalyticalEngine,
  _database: string,
  _table: string,
  _signal: OtlpExport["signal"],
  _request: OtlpExport
): Effect.Effect<OtlpIngestResult, BadRequest> =>
  Effect.fail(
    new BadRequest({ message: "OTLP ingest is not implemented yet.", hint: "Wait for it." })
  )
