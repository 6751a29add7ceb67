/**
 * `OtlpSeries` into the metrics-app's tables: the same series and samples a remote write
 * of them would store (logged as the remote-write body they would arrive in), so PromQL
 * cannot tell them apart. The otlp-app has stored the export's rows already; failing to
 * accept them as series is a defect.
 */
import { Effect, Layer } from "effect"
import { AppRegistry } from "../../../domain/AppRegistry.js"
import type { ClusterScope } from "../../../domain/Authorization.js"
import type { DatabaseName } from "../../../domain/Ids.js"
import type { OtlpMetricsRequest } from "../../../domain/OtlpMetricsModel.js"
import { OtlpSeries } from "../../../domain/OtlpSeries.js"
import { AppIds } from "../../../domain/AppIds.js"
import { decodeRemoteWrite, makeDecoderMemory } from "../RemoteWriteDecode.js"
import { SeriesStore } from "../SeriesStore.js"
import { remoteWriteBody } from "../WriteRequestWriter.js"
import { otlpSeries } from "./OtlpToSeries.js"

export const OtlpSeriesLive = Layer.effect(
  OtlpSeries,
  Effect.gen(function* () {
    const apps = yield* AppRegistry
    const series = yield* SeriesStore
    const known = makeDecoderMemory()

    const store = Effect.fn("OtlpSeries.store")(function* (
      scope: ClusterScope,
      database: DatabaseName,
      request: OtlpMetricsRequest
    ) {
      if (!(yield* apps.installed(scope.clusterId, AppIds.metrics))) return
      const write = otlpSeries(request)
      if (write.samples === 0 && write.metadata.length === 0) return
      // Logged as the remote-write body it would have arrived in, and read back from it.
      const body = remoteWriteBody(write)
      const decoded = yield* decodeRemoteWrite(body, Number.MAX_SAFE_INTEGER, known)
      yield* series.store(scope.clusterId, database, decoded, body)
    }, Effect.orDie)

    return OtlpSeries.of({ store })
  })
)
