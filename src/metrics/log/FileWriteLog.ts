/**
 * `MetricsWriteLog` on disk: a file per accepted write under
 * `<dataDir>/metrics-log/<cluster>/<database>/`, deleted once the engine holds it. A file
 * per write, not one appended log, so a batch releases exactly its own writes whatever
 * arrived while it was stored. Written without fsync, as Prometheus writes its WAL: a
 * crash of the process loses nothing, a crash of the machine may lose the last writes.
 * A file cut short by a crash mid-write was never acknowledged; replay finds it does not
 * decode and drops it.
 */
import * as syncFs from "node:fs"
import * as fs from "node:fs/promises"
import * as path from "node:path"
import { Effect, Layer, Schema } from "effect"
import { ClusterId, DatabaseName } from "../../../domain/Ids.js"
import { LoggedWrite, MetricsWriteLog, SeriesDatabase } from "../../../domain/MetricsWriteLog.js"
import { SluiceConfig } from "../../config/SluiceConfig.js"

const SUFFIX = ".rw"
const isClusterId = Schema.is(ClusterId)
const isDatabaseName = Schema.is(DatabaseName)

const directoryOf = (root: string, where: SeriesDatabase) =>
  path.join(root, where.clusterId, where.database)

const missing = (error: NodeJS.ErrnoException) => {
  if (error.code !== "ENOENT") throw error
}

const entries = (directory: string) =>
  fs.readdir(directory).catch((error: NodeJS.ErrnoException) => {
    missing(error)
    return []
  })

export const make = (root: string) => {
  const made = new Set<string>()
  // Names sort in the order of acceptance, across restarts too (time first).
  let sequence = 0
  const nextId = () =>
    `${Date.now().toString().padStart(15, "0")}-${(sequence++).toString().padStart(12, "0")}`

  const append = Effect.fn("MetricsWriteLog.append")(function* (
    where: SeriesDatabase,
    body: Uint8Array
  ) {
    const directory = directoryOf(root, where)
    const id = nextId()
    // Written synchronously: a small write into the page cache costs well under a
    // millisecond, where three trips through the thread pool (open, write, close) waited
    // 5-20 ms for the event loop while batches were being prepared on it.
    yield* Effect.try(() => {
      if (!made.has(directory)) {
        syncFs.mkdirSync(directory, { recursive: true, mode: 0o700 })
        made.add(directory)
      }
      syncFs.writeFileSync(path.join(directory, id + SUFFIX), body, { mode: 0o600 })
    }).pipe(Effect.orDie)
    return new LoggedWrite({ where, id }, { disableValidation: true })
  })

  const release = Effect.fn("MetricsWriteLog.release")(function* (
    writes: ReadonlyArray<LoggedWrite>
  ) {
    yield* Effect.tryPromise(() =>
      Promise.all(
        writes.map((write) =>
          fs.unlink(path.join(directoryOf(root, write.where), write.id + SUFFIX)).catch(missing)
        )
      )
    ).pipe(Effect.orDie)
  })

  const unreleased = Effect.tryPromise(async () => {
    const found: Array<{ write: LoggedWrite; body: Uint8Array }> = []
    for (const cluster of await entries(root)) {
      if (!isClusterId(cluster)) continue
      for (const database of await entries(path.join(root, cluster))) {
        if (!isDatabaseName(database)) continue
        const where = new SeriesDatabase({
          clusterId: ClusterId.make(cluster),
          database: DatabaseName.make(database)
        })
        const names = (await entries(path.join(root, cluster, database)))
          .filter((name) => name.endsWith(SUFFIX))
          .sort()
        for (const name of names) {
          const body = await fs.readFile(path.join(root, cluster, database, name))
          found.push({ write: new LoggedWrite({ where, id: name.slice(0, -SUFFIX.length) }), body })
        }
      }
    }
    return found
  }).pipe(Effect.orDie, Effect.withSpan("MetricsWriteLog.unreleased"))

  return MetricsWriteLog.of({ append, release, unreleased })
}

/** The log in the service's data directory. */
export const layer = Layer.effect(
  MetricsWriteLog,
  Effect.map(SluiceConfig, (config) => make(path.join(config.dataDir, "metrics-log")))
)
