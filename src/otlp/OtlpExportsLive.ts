/**
 * `OtlpExports` over the data plane: the one way in of both native OTLP transports.
 * The otlp-app gates both methods, so a program that embeds sluice meets the refusal an
 * exporter does.
 */
import { Effect, Layer, Schema } from "effect"
import { AppAccess } from "../../domain/AppAccess.js"
import { AppIds } from "../../domain/AppIds.js"
import { AppRegistry } from "../../domain/AppRegistry.js"
import { Engines } from "../../domain/Engine.js"
import { BadRequest, Unavailable } from "../../domain/Errors.js"
import { TableName } from "../../domain/Ids.js"
import { IngestWriter } from "../../domain/IngestWriter.js"
import { OtlpExports, tableHeader } from "../../domain/OtlpExports.js"
import type { OtlpSignal } from "../../domain/OtlpExports.js"
import { OtlpSeries } from "../../domain/OtlpSeries.js"
import { decodeExport } from "./OtlpDecode.js"

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

export const OtlpExportsLive = Layer.effect(
  OtlpExports,
  Effect.gen(function* () {
    const access = yield* AppAccess
    const apps = yield* AppRegistry
    const engines = yield* Engines
    const writer = yield* IngestWriter
    const series = yield* OtlpSeries

    return OtlpExports.of({
      target: Effect.fn("OtlpExports.target")(function* (caller, signal, where, tableOverride) {
        const { scope, database } = yield* access.enter(caller, "insert", AppIds.otlp, where)
        const table = yield* tableOf(signal, tableOverride)
        // Asked here so that any cluster not serving now, paused included, is `Unavailable`:
        // OTLP exporters retry that, and a paused cluster is worth retrying.
        yield* engines.forCluster(scope.clusterId).pipe(
          Effect.mapError(
            (error) =>
              new Unavailable({
                message: error.message,
                hint: "Retry when the cluster is running."
              })
          )
        )
        return { scope, database, table }
      }),

      ingest: Effect.fn("OtlpExports.ingest")(function* (at, signal, encoding, bytes) {
        yield* apps.require(at.scope.clusterId, AppIds.otlp)
        const request = yield* decodeExport(signal, encoding, bytes)
        const result = yield* writer.insertExport(at.scope, at.database, at.table, request)
        // Also as Prometheus series when the cluster has the metrics-app.
        if (request.signal === "metrics")
          yield* series.store(at.scope, at.database, request.request)
        return { accepted: result.accepted, rejected: result.rejected, message: result.message }
      })
    })
  })
)
