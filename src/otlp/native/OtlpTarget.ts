/**
 * What the native OTLP transports (HTTP and gRPC) share: where an export lands — the
 * caller's cluster, with the otlp-app installed, the selected database and the signal's
 * table — and the decode-then-ingest step. Each transport authenticates its caller and
 * reads the asked-for database its own way (a header or parameter, gRPC metadata).
 */
import { Effect, Schema } from "effect"
import { Engines } from "../../../domain/Engine.js"
import type { AnalyticalEngine } from "../../../domain/Engine.js"
import { BadRequest, Unavailable } from "../../../domain/Errors.js"
import { TableName } from "../../../domain/Ids.js"
import { AppRegistry } from "../../../domain/AppRegistry.js"
import { Authorization } from "../../../domain/Authorization.js"
import type { ScopeParams } from "../../../domain/Authorization.js"
import { DatabaseSelection } from "../../../domain/DatabaseSelection.js"
import type { Caller } from "../../../domain/Identity.js"
import { engineDatabase } from "../../databases/EngineDatabase.js"
import { decodeExport, ingestExport } from "../OtlpIngest.js"
import type { OtlpSignal } from "../OtlpIngest.js"
import type { OtlpEncoding } from "./OtlpBody.js"
import type { ExportOutcome } from "./OtlpResponse.js"

export const OTLP_APP = "otlp-app" as const

/** The header that names another table than the signal's own. */
export const tableHeader = (signal: OtlpSignal) => `x-service-${signal}-table` as const

export interface OtlpTarget {
  readonly engine: AnalyticalEngine
  /** The engine's name of the selected database. */
  readonly database: string
  readonly table: string
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

/** Resolves where an export of `caller` lands; built once per transport. */
export const makeOtlpTarget = Effect.gen(function* () {
  const authorization = yield* Authorization
  const selection = yield* DatabaseSelection
  const apps = yield* AppRegistry
  const engines = yield* Engines
  return Effect.fn("Otlp.target")(function* (
    caller: Caller,
    signal: OtlpSignal,
    where: ScopeParams & { readonly database: string | undefined },
    tableOverride: string | undefined
  ) {
    const scope = yield* authorization.clusterScope(caller, "insert", where)
    yield* apps.require(scope.clusterId, OTLP_APP)
    const table = yield* tableOf(signal, tableOverride)
    const database = yield* selection.select(scope, where.database)
    const engine = yield* engines
      .forCluster(scope.clusterId)
      .pipe(
        Effect.mapError(
          (error) =>
            new Unavailable({ message: error.message, hint: "Retry when the cluster is running." })
        )
      )
    return { engine, database: engineDatabase(engine, database), table } satisfies OtlpTarget
  })
})

/** Decodes the export and stores its rows; a payload that does not decode stores nothing. */
export const ingestSignal = Effect.fn("Otlp.ingest")(function* (
  target: OtlpTarget,
  signal: OtlpSignal,
  encoding: OtlpEncoding,
  bytes: Uint8Array
) {
  const request = yield* decodeExport(signal, encoding, bytes)
  const result = yield* ingestExport(target.engine, target.database, target.table, signal, request)
  return {
    accepted: result.accepted,
    rejected: result.rejected,
    message: result.message
  } satisfies ExportOutcome
})
