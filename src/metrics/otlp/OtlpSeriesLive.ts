/**
 * `OtlpSeries` into the metrics-app's tables: the same series and samples a remote write
 * of them would store, so PromQL cannot tell them apart. The otlp-app has stored the
 * export's rows already; an engine failing this second insert is a defect, as it is for
 * remote write.
 */
import { Effect, Layer } from "effect"
import { AppRegistry } from "../../../domain/AppRegistry.js"
import type { ClusterScope } from "../../../domain/Authorization.js"
import { Engines } from "../../../domain/Engine.js"
import type { DatabaseName } from "../../../domain/Ids.js"
import type { OtlpMetricsRequest } from "../../../domain/OtlpMetricsModel.js"
import { OtlpSeries } from "../../../domain/OtlpSeries.js"
import { engineDatabase } from "../../databases/EngineDatabase.js"
import { createTables, insertWrite } from "../MetricsTables.js"
import { METRICS_APP } from "../RemoteWrite.js"
import { makeSeriesRowsWritten } from "../SeriesRowsWritten.js"
import { otlpSeries } from "./OtlpToSeries.js"

export const OtlpSeriesLive = Layer.effect(
  OtlpSeries,
  Effect.gen(function* () {
    const apps = yield* AppRegistry
    const engines = yield* Engines
    const created = new Set<string>()
    // Series rows this process has written (SeriesRowsWritten.ts), as remote write keeps its own.
    const written = makeSeriesRowsWritten()

    const store = Effect.fn("OtlpSeries.store")(function* (
      scope: ClusterScope,
      database: DatabaseName,
      request: OtlpMetricsRequest
    ) {
      if (!(yield* apps.installed(scope.clusterId, METRICS_APP))) return
      const write = otlpSeries(request)
      if (write.samples === 0 && write.metadata.length === 0) return
      const engine = yield* engines.forCluster(scope.clusterId).pipe(Effect.orDie)
      const name = engineDatabase(engine, database)
      const key = `${scope.clusterId}/${name}`
      if (!created.has(key)) {
        yield* createTables(engine, name).pipe(Effect.orDie)
        created.add(key)
      }
      yield* insertWrite(
        engine,
        name,
        write.series,
        write.samples,
        write.metadata,
        written,
        key
      ).pipe(Effect.orDie)
    })

    return OtlpSeries.of({ store })
  })
)
