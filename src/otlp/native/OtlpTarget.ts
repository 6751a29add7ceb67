/**
 * What the native OTLP transports (HTTP and gRPC) share: where an export lands — the
 * caller's cluster, with the otlp-app installed, the selected database and the signal's
 * table — and the decode-then-ingest step. Each transport authenticates its caller and
 * reads the asked-for database its own way (a header or parameter, gRPC metadata).
 */
import { Effect, Schema } from "effect"
import type { ClusterScope } from "../../../domain/Authorization.js"
import { Engines } from "../../../domain/Engine.js"
import { BadRequest, Unavailable } from "../../../domain/Errors.js"
import type { DatabaseName } from "../../../domain/Ids.js"
import { TableName } from "../../../domain/Ids.js"
import { IngestWriter } from "../../../domain/IngestWriter.js"
import { AppRegistry } from "../../../domain/AppRegistry.js"
import { Authorization } from "../../../domain/Authorization.js"
import type { ScopeParams } from "../../../domain/Authorization.js"
import { DatabaseSelection } from "../../../domain/DatabaseSelection.js"
import type { Caller } from "../../../domain/Identity.js"
import { OtlpSeries } from "../../../domain/OtlpSeries.js"
import { decodeExport } from "../OtlpIngest.js"
import type { OtlpSignal } from "../OtlpIngest.js"
import type { OtlpEncoding } from "./OtlpBody.js"
import type { ExportOutcome } from "./OtlpResponse.js"

export const OTLP_APP = "otlp-app" as const

/** The header that names another table than the signal's own. */
export const tableHeader = (signal: OtlpSignal) => `x-service-${signal}-table` as const

export interface OtlpTarget {
  readonly scope: ClusterScope
  readonly database: DatabaseName
  readonly table: TableName
}

const decodeTable = Schema.decodeUnknown(TableName)

const tableOf = (signal: OtlpSignal, override: string | undefined) =>
  decodeTable(override ?? signal).pipe(
    Effect.mapError(
      () =>
        new BadRequest({
          message: `'${override}' (${tableHeader(signal)}) is not a valid table name.`,
          hint: "Names start with a letter and hold at most 64 letters, digits or underscores."
        })
    )
  )

/** Where an export of a caller lands, and storing it there; built once per transport. */
export const makeOtlpExports = Effect.gen(function* () {
  const authorization = yield* Authorization
  const selection = yield* DatabaseSelection
  const apps = yield* AppRegistry
  const engines = yield* Engines
  const writer = yield* IngestWriter
  const series = yield* OtlpSeries

  const target = Effect.fn("Otlp.target")(function* (
    caller: Caller,
    signal: OtlpSignal,
    where: ScopeParams & { readonly database: string | undefined },
    tableOverride: string | undefined
  ) {
    const scope = yield* authorization.clusterScope(caller, "insert", where)
    yield* apps.require(scope.clusterId, OTLP_APP)
    const table = yield* tableOf(signal, tableOverride)
    const database = yield* selection.select(scope, where.database)
    // Asked here so that any cluster not serving now, paused included, is `Unavailable`:
    // OTLP exporters retry that, and a paused cluster is worth retrying.
    yield* engines
      .forCluster(scope.clusterId)
      .pipe(
        Effect.mapError(
          (error) =>
            new Unavailable({ message: error.message, hint: "Retry when the cluster is running." })
        )
      )
    return { scope, database, table } satisfies OtlpTarget
  })

  /** Decodes the export and stores its rows; a payload that does not decode stores nothing. */
  const ingest = Effect.fn("Otlp.ingest")(function* (
    at: OtlpTarget,
    signal: OtlpSignal,
    encoding: OtlpEncoding,
    bytes: Uint8Array
  ) {
    const request = yield* decodeExport(signal, encoding, bytes)
    const result = yield* writer.insertExport(at.scope, at.database, at.table, request)
    // Also as Prometheus series when the cluster has the metrics-app.
    if (request.signal === "metrics") yield* series.store(at.scope, at.database, request.request)
    return {
      accepted: result.accepted,
      rejected: result.rejected,
      message: result.message
    } satisfies ExportOutcome
  })

  return { target, ingest }
})
