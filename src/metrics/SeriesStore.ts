/**
 * Where decoded series land, for remote write and OTLP metrics alike: the selected
 * database's series tables, created on the first write into it, and series rows written
 * once per series and hour (SeriesRowsWritten.ts). One per process, so both writers
 * share what it remembers.
 */
import { Effect } from "effect"
import { Engines } from "../../domain/Engine.js"
import type { ClusterId, DatabaseName } from "../../domain/Ids.js"
import { engineDatabase } from "../databases/EngineDatabase.js"
import { createTables, insertWrite } from "./MetricsTables.js"
import type { DecodedWrite } from "./RemoteWriteDecode.js"
import { makeSeriesRowsWritten } from "./SeriesRowsWritten.js"

export class SeriesStore extends Effect.Service<SeriesStore>()("sluice/SeriesStore", {
  effect: Effect.gen(function* () {
    const engines = yield* Engines
    // Databases whose tables exist: `CREATE … IF NOT EXISTS` runs once per database.
    const created = new Set<string>()
    const written = makeSeriesRowsWritten()

    return {
      /**
       * Fails only when the cluster's engine cannot be reached; the engine failing an
       * insert of valid rows is not the sender's to fix (a defect).
       */
      store: Effect.fn("SeriesStore.store")(function* (
        clusterId: ClusterId,
        database: DatabaseName,
        write: DecodedWrite
      ) {
        const engine = yield* engines.forCluster(clusterId)
        const name = engineDatabase(engine, database)
        const key = `${clusterId}/${name}`
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
    }
  })
}) {}
