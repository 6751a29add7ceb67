/**
 * `MetricsWriteLog` in memory, for compositions without a data directory (the in-memory
 * test layers, whose engines keep nothing either). It keeps what it is given, so a second
 * store over the same log replays what the first did not release.
 */
import { Effect, Layer } from "effect"
import { LoggedWrite, MetricsWriteLog } from "../../../domain/MetricsWriteLog.js"
import type { SeriesDatabase } from "../../../domain/MetricsWriteLog.js"

export const make = () => {
  const held = new Map<string, { write: LoggedWrite; body: Uint8Array }>()
  let sequence = 0
  const keyOf = (write: LoggedWrite) =>
    `${write.where.clusterId}/${write.where.database}/${write.id}`

  return MetricsWriteLog.of({
    append: (where: SeriesDatabase, body: Uint8Array) =>
      Effect.sync(() => {
        const write = new LoggedWrite({ where, id: (sequence++).toString().padStart(12, "0") })
        held.set(keyOf(write), { write, body })
        return write
      }),
    release: (writes) =>
      Effect.sync(() => {
        for (const write of writes) held.delete(keyOf(write))
      }),
    forget: (cluster, database) =>
      Effect.sync(() => {
        for (const [key, { write }] of held)
          if (
            write.where.clusterId === cluster &&
            (database === undefined || write.where.database === database)
          )
            held.delete(key)
      }),
    unreleased: Effect.sync(() => [...held.values()])
  })
}

export const layer = Layer.sync(MetricsWriteLog, make)
