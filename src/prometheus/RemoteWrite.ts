/**
 * `RemoteWrite`: where a remote write lands and storing it: the caller's cluster with an
 * insert key, the metrics-app installed, the selected database; the series tables are
 * created on the first write into a database (SeriesStore.ts).
 */
import { Clock, Duration, Effect, Layer } from "effect"
import { AppAccess } from "../../domain/AppAccess.js"
import { AppIds } from "../../domain/AppIds.js"
import type { AppParams } from "../../domain/AppAccess.js"
import type { Caller } from "../../domain/Identity.js"
import { RemoteWrite } from "../../domain/RemoteWrite.js"
import { positiveInt } from "../config/ConfigValues.js"
import { engineAccessError } from "../engine/EngineAccess.js"
import { decodeRemoteWrite, makeDecoderMemory } from "./RemoteWriteDecode.js"
import type { Unstored } from "./WriteRequestReader.js"
import { SeriesStore } from "./SeriesStore.js"

/** Uncompressed bytes of one remote-write body; Prometheus sends a few MB at most. */
const writeLimit = positiveInt("SLUICE_METRICS_MAX_WRITE_BYTES", 64 * 1024 * 1024)

/** How often at most the log says what remote writes carried that was not stored. */
const NOTICE_EVERY = Duration.minutes(1)

/**
 * Exemplars and native-histogram samples are not stored (sluice stores float samples)
 * and remote write 1.0 has no way to tell the sender, so the service's log says how many
 * arrived: at once the first time, then at most once a minute, with the counts since.
 */
export const makeUnstoredNotices = () => {
  let exemplars = 0
  let histograms = 0
  let lastNotice: number | undefined
  return (unstored: Unstored) =>
    Effect.gen(function* () {
      if (unstored.exemplars === 0 && unstored.histograms === 0) return
      exemplars += unstored.exemplars
      histograms += unstored.histograms
      const now = yield* Clock.currentTimeMillis
      if (lastNotice !== undefined && now - lastNotice < Duration.toMillis(NOTICE_EVERY)) return
      lastNotice = now
      yield* Effect.logWarning(
        "metrics-app: remote writes carried exemplars or native-histogram samples, which are not stored (sluice stores float samples)"
      ).pipe(Effect.annotateLogs({ exemplars, histograms }))
      exemplars = 0
      histograms = 0
    })
}

export const RemoteWriteLive = Layer.effect(
  RemoteWrite,
  Effect.gen(function* () {
    const access = yield* AppAccess
    const store = yield* SeriesStore
    const limit = yield* Effect.orDie(writeLimit)
    const known = makeDecoderMemory()
    const notice = makeUnstoredNotices()

    const write = Effect.fn("RemoteWrite.write")(function* (
      caller: Caller,
      where: AppParams,
      body: Uint8Array
    ) {
      const { scope, database } = yield* access.enter(caller, "insert", AppIds.metrics, where)
      const decoded = yield* decodeRemoteWrite(body, limit, known)
      yield* store
        .store(scope.clusterId, database, decoded, body)
        .pipe(Effect.mapError(engineAccessError))
      yield* notice(decoded.unstored)
      return decoded.samples
    })

    return RemoteWrite.of({ write, limit })
  })
)
