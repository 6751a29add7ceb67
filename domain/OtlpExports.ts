/**
 * The otlp-app: OTLP export requests (traces, logs, metrics), as OTLP/HTTP and OTLP/gRPC
 * carry them, stored in the collector exporter's tables of a cluster's database. Both
 * transports call this one capability; each reads the caller's credential, the database
 * and the table override its own way (a header or parameter, gRPC metadata).
 */
import { Context, Schema } from "effect"
import type { Effect } from "effect"
import type { AppParams } from "./AppAccess.js"
import type { ClusterScope } from "./Authorization.js"
import type {
  AppNotInstalled,
  BadRequest,
  ClusterPaused,
  DatabaseNotFound,
  Forbidden,
  InvalidDatabaseName,
  NotFound,
  Unavailable
} from "./Errors.js"
import type { Caller } from "./Identity.js"
import type { DatabaseName, TableName } from "./Ids.js"
import type { ExportOutcome } from "./IngestWriter.js"

export const OtlpSignal = Schema.Literal("traces", "logs", "metrics")
export type OtlpSignal = typeof OtlpSignal.Type

/** How an export request's bytes are encoded: OTLP/JSON or protobuf. */
export const OtlpEncoding = Schema.Literal("json", "protobuf")
export type OtlpEncoding = typeof OtlpEncoding.Type

/** The header (OTLP/HTTP) or metadata key (OTLP/gRPC) naming another table than the signal's. */
export const tableHeader = (signal: OtlpSignal) => `x-service-${signal}-table` as const

/** Where an export lands: the caller's cluster, its selected database, the signal's table. */
export interface OtlpTarget {
  readonly scope: ClusterScope
  readonly database: DatabaseName
  readonly table: TableName
}

export class OtlpExports extends Context.Tag("sluice/OtlpExports")<
  OtlpExports,
  {
    /**
     * Where `caller`'s export of `signal` lands: it may insert on the cluster, the
     * otlp-app is installed, the database exists, the table (the signal's name unless
     * `tableOverride`) is a valid name, and the cluster serves now. A cluster not serving,
     * paused included, is `Unavailable`, which OTLP exporters retry.
     */
    readonly target: (
      caller: Caller,
      signal: OtlpSignal,
      where: AppParams,
      tableOverride: string | undefined
    ) => Effect.Effect<
      OtlpTarget,
      | BadRequest
      | Forbidden
      | NotFound
      | AppNotInstalled
      | InvalidDatabaseName
      | DatabaseNotFound
      | Unavailable
    >
    /**
     * Decodes an export request and stores its rows (metrics also as Prometheus series
     * when the cluster has the metrics-app); a request that does not decode stores nothing.
     */
    readonly ingest: (
      at: OtlpTarget,
      signal: OtlpSignal,
      encoding: OtlpEncoding,
      bytes: Uint8Array
    ) => Effect.Effect<ExportOutcome, AppNotInstalled | BadRequest | ClusterPaused | Unavailable>
  }
>() {}
