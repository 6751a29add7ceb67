/**
 * `MetricsWriteLog` on disk, in segments as Prometheus keeps its WAL: under
 * `<dataDir>/metrics-log/<cluster>/<database>/`, each accepted write appended to the
 * open segment as a record (its length, 4 bytes little-endian, then the body). A segment
 * is deleted once it is full and every write in it is released. A file per write cost far
 * more to create and delete than an append.
 *
 * Written without fsync, as Prometheus writes its WAL: a crash of the process loses
 * nothing, a crash of the machine may lose the last writes. A record cut short by a crash
 * mid-write was never acknowledged; reading stops there. What is released is counted in
 * memory only: after a crash the writes of a segment not yet deleted are stored again,
 * which changes no answer (SeriesStore.ts), and at most a segment's worth per database.
 */
import * as syncFs from "node:fs"
import * as fs from "node:fs/promises"
import * as path from "node:path"
import { Effect, Layer, Schema } from "effect"
import { ClusterId, DatabaseName } from "../../../domain/Ids.js"
import { LoggedWrite, MetricsWriteLog, SeriesDatabase } from "../../../domain/MetricsWriteLog.js"
import { SluiceConfig } from "../../config/SluiceConfig.js"

const SUFFIX = ".wal"
/** A segment takes appends until it is this long. */
const SEGMENT_BYTES = 4 * 1024 * 1024
const isClusterId = Schema.is(ClusterId)
const isDatabaseName = Schema.is(DatabaseName)

interface Segment {
  readonly file: string
  records: number
  released: number
  /** Open for appends (the database's newest). */
  fd: number | undefined
  bytes: number
}

const missing = (error: NodeJS.ErrnoException) => {
  if (error.code !== "ENOENT") throw error
}

const entries = (directory: string) =>
  fs.readdir(directory).catch((error: NodeJS.ErrnoException) => {
    missing(error)
    return []
  })

/** The records of a segment's bytes, up to the first one cut short. */
const records = (bytes: Buffer): Array<Uint8Array> => {
  const found: Array<Uint8Array> = []
  let at = 0
  while (at + 4 <= bytes.length) {
    const length = bytes.readUInt32LE(at)
    if (at + 4 + length > bytes.length) break
    found.push(bytes.subarray(at + 4, at + 4 + length))
    at += 4 + length
  }
  return found
}

/** The log under `root`; its open segments are closed, and deleted if all released, with the scope. */
export const make = Effect.fn("MetricsWriteLog.make")(function* (root: string) {
  const segments = new Map<string, Segment>()
  // The open segment of each database directory.
  const open = new Map<string, Segment>()
  let sequence = 0
  // Names sort in the order written, across restarts too (time first).
  const segmentName = () =>
    `${Date.now().toString().padStart(15, "0")}-${(sequence++).toString().padStart(9, "0")}${SUFFIX}`

  const retireIfDone = (segment: Segment) => {
    if (segment.fd !== undefined || segment.released < segment.records) return
    segments.delete(segment.file)
    // Synchronous, once a segment: the next look at the directory finds it gone.
    syncFs.rmSync(segment.file, { force: true })
  }

  const openSegment = (directory: string): Segment => {
    const current = open.get(directory)
    if (current !== undefined && current.bytes < SEGMENT_BYTES) return current
    if (current !== undefined) {
      syncFs.closeSync(current.fd!)
      current.fd = undefined
      retireIfDone(current)
    }
    syncFs.mkdirSync(directory, { recursive: true, mode: 0o700 })
    const file = path.join(directory, segmentName())
    const segment: Segment = {
      file,
      records: 0,
      released: 0,
      fd: syncFs.openSync(file, "a", 0o600),
      bytes: 0
    }
    segments.set(file, segment)
    open.set(directory, segment)
    return segment
  }

  const append = Effect.fn("MetricsWriteLog.append")(function* (
    where: SeriesDatabase,
    body: Uint8Array
  ) {
    // Synchronous: an append into the page cache takes microseconds, less than a trip
    // through the thread pool and back to a busy event loop.
    const segment = yield* Effect.try(() => {
      const directory = path.join(root, where.clusterId, where.database)
      const segment = openSegment(directory)
      const header = Buffer.alloc(4)
      header.writeUInt32LE(body.length)
      try {
        syncFs.writevSync(segment.fd!, [header, body])
      } catch (error) {
        // A record may be cut short (a full disk): nothing is appended after it, so what
        // reading stops at is only ever this one.
        open.delete(directory)
        syncFs.closeSync(segment.fd!)
        segment.fd = undefined
        retireIfDone(segment)
        throw error
      }
      segment.bytes += 4 + body.length
      return segment
    }).pipe(Effect.orDie)
    const index = segment.records++
    return new LoggedWrite(
      { where, id: `${path.basename(segment.file)}#${index.toString().padStart(9, "0")}` },
      { disableValidation: true }
    )
  })

  const release = (writes: ReadonlyArray<LoggedWrite>) =>
    Effect.sync(() => {
      for (const write of writes) {
        const file = path.join(
          root,
          write.where.clusterId,
          write.where.database,
          write.id.slice(0, write.id.indexOf("#"))
        )
        const segment = segments.get(file)
        if (segment === undefined) continue
        segment.released++
        retireIfDone(segment)
      }
    })

  const forget = (cluster: ClusterId, database?: DatabaseName) =>
    Effect.sync(() => {
      const directory =
        database === undefined ? path.join(root, cluster) : path.join(root, cluster, database)
      const inside = (file: string) => file === directory || file.startsWith(directory + path.sep)
      for (const [dir, segment] of open)
        if (inside(dir)) {
          syncFs.closeSync(segment.fd!)
          open.delete(dir)
        }
      for (const file of segments.keys()) if (inside(file)) segments.delete(file)
      syncFs.rmSync(directory, { recursive: true, force: true })
    })

  const unreleased = Effect.tryPromise(async () => {
    const found: Array<{ write: LoggedWrite; body: Uint8Array }> = []
    for (const cluster of (await entries(root)).sort()) {
      if (!isClusterId(cluster)) continue
      for (const database of (await entries(path.join(root, cluster))).sort()) {
        if (!isDatabaseName(database)) continue
        const where = new SeriesDatabase({ clusterId: cluster, database })
        const directory = path.join(root, cluster, database)
        const names = (await entries(directory)).filter((name) => name.endsWith(SUFFIX)).sort()
        for (const name of names) {
          const file = path.join(directory, name)
          if (segments.has(file)) continue
          const bodies = records(await fs.readFile(file))
          const segment: Segment = {
            file,
            records: bodies.length,
            released: 0,
            fd: undefined,
            bytes: 0
          }
          segments.set(file, segment)
          bodies.forEach((body, index) =>
            found.push({
              write: new LoggedWrite({ where, id: `${name}#${index.toString().padStart(9, "0")}` }),
              body
            })
          )
          retireIfDone(segment)
        }
      }
    }
    return found
  }).pipe(Effect.orDie, Effect.withSpan("MetricsWriteLog.unreleased"))

  yield* Effect.addFinalizer(() =>
    Effect.sync(() => {
      for (const segment of open.values()) {
        syncFs.closeSync(segment.fd!)
        segment.fd = undefined
        retireIfDone(segment)
      }
      open.clear()
    })
  )

  return MetricsWriteLog.of({ append, release, forget, unreleased })
})

/** The log in the service's data directory. */
export const layer = Layer.scoped(
  MetricsWriteLog,
  Effect.flatMap(SluiceConfig, (config) => make(path.join(config.dataDir, "metrics-log")))
)
