/**
 * Where a remote write lands and storing it: the caller's cluster with an insert key,
 * the metrics-app installed, the selected database; the series tables are created on the
 * first write into a database (SeriesStore.ts). Built once by the HTTP group.
 */
import { Effect } from "effect"
import { AppRegistry } from "../../domain/AppRegistry.js"
import { Authorization } from "../../domain/Authorization.js"
import type { ScopeParams } from "../../domain/Authorization.js"
import { DatabaseSelection } from "../../domain/DatabaseSelection.js"
import type { Caller } from "../../domain/Identity.js"
import { positiveInt } from "../config/ConfigValues.js"
import { engineAccessError } from "../engine/EngineAccess.js"
import { decodeRemoteWrite, makeDecoderMemory } from "./RemoteWriteDecode.js"
import { SeriesStore } from "./SeriesStore.js"

export const METRICS_APP = "metrics-app" as const

/** Uncompressed bytes of one remote-write body; Prometheus sends a few MB at most. */
export const writeLimit = positiveInt("SLUICE_METRICS_MAX_WRITE_BYTES", 64 * 1024 * 1024)

export const makeRemoteWrites = Effect.gen(function* () {
  const authorization = yield* Authorization
  const selection = yield* DatabaseSelection
  const apps = yield* AppRegistry
  const store = yield* SeriesStore
  const limit = yield* Effect.orDie(writeLimit)
  const known = makeDecoderMemory()

  const write = Effect.fn("RemoteWrite.write")(function* (
    caller: Caller,
    where: ScopeParams & { readonly database: string | undefined },
    body: Uint8Array
  ) {
    const scope = yield* authorization.clusterScope(caller, "insert", where)
    yield* apps.require(scope.clusterId, METRICS_APP)
    const database = yield* selection.select(scope, where.database)
    const decoded = yield* decodeRemoteWrite(body, limit, known)
    yield* store
      .store(scope.clusterId, database, decoded, body)
      .pipe(Effect.mapError(engineAccessError))
    return decoded.samples
  })

  return { write, limit }
})
