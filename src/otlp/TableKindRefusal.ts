/**
 * An insert into a table of another layout than its rows': refused before anything is
 * read or written, naming what the table is and what it takes. The engine's own answer
 * (an unknown `__raw_data` column, once the insert had started) told the user nothing.
 */
import { Effect } from "effect"
import { BadRequest } from "../../domain/Errors.js"
import type { TableKind } from "../../domain/IngestWriter.js"
import { METRIC_KINDS } from "./OtlpTableDdl.js"

const otlpSignal = {
  "otlp-traces": "traces",
  "otlp-logs": "logs",
  "otlp-metrics": "metrics"
} as const

const sendOtlp = (signal: string, table: string) =>
  `Send OTLP ${signal} to '${table}' (POST /otlp/v1/${signal}, or this endpoint with ?transform=otlp-${signal})`

/** The metrics name a table of metric points belongs to (`metrics` for `metrics_gauge`). */
const metricsOf = (table: string) => {
  // Longest first: `_exponential_histogram` also ends in `_histogram`.
  const kinds = [...METRIC_KINDS].sort((a, b) => b.length - a.length)
  const kind = kinds.find((kind) => table.endsWith(`_${kind}`))
  return kind === undefined ? table : table.slice(0, -(kind.length + 1))
}

const refusal = (table: string, kind: TableKind, sent: string): BadRequest => {
  const elsewhere = `or send the ${sent} to a table of another name.`
  switch (kind) {
    case "otlp-traces":
    case "otlp-logs": {
      const signal = otlpSignal[kind]
      return new BadRequest({
        message: `Table '${table}' holds OTLP ${signal} in the typed columns of the OTLP app; it does not take ${sent}.`,
        hint: `${sendOtlp(signal, table)}, ${elsewhere}`
      })
    }
    case "otlp-metrics":
      return new BadRequest({
        message: `Table '${table}' is the OTLP app's view over its metric tables; it does not take ${sent}.`,
        hint: `${sendOtlp("metrics", table)}, ${elsewhere}`
      })
    case "otlp-metric-points":
      return new BadRequest({
        message: `Table '${table}' holds OTLP metric points in the typed columns of the OTLP app; it does not take ${sent}.`,
        hint: `${sendOtlp("metrics", metricsOf(table))}, ${elsewhere}`
      })
    default:
      return new BadRequest({
        message: `Table '${table}' has fixed columns of its own; it does not take ${sent}.`,
        hint: `Send the ${sent} to a table of another name.`
      })
  }
}

/** Whether rows of the schemaless layout may go into a table of `kind`. */
const takesRecords = (kind: TableKind) => kind === "absent" || kind === "records"

/** Fails unless `table` takes schemaless rows; `sent` names what the client sent. */
export const refuseOtherLayout = (table: string, kind: TableKind, sent = "JSON records") =>
  takesRecords(kind) ? Effect.void : Effect.fail(refusal(table, kind, sent))
