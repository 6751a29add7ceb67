/**
 * Where decoded series land, for remote write and OTLP metrics alike. A write is
 * accepted once `MetricsWriteLog` holds it; the database's writes then go into the engine
 * in batches (GroupCommit.ts), series rows once per series and hour
 * (SeriesRowsWritten.ts). Readers ask for `readable` first, so a query sees every write
 * acknowledged before it. On start, writes the log still holds are stored again, without
 * the samples the table already holds (StoredSamples.ts). One per process, so both
 * writers share it.
 *
 * Answered only after its engine insert, a write took far longer than Prometheus takes
 * to answer; the engine insert alone took about as long as Prometheus.
 */
import { Clock, Duration, Effect, ExecutionStrategy, Scope } from "effect"
import { EngineUnavailable, Engines } from "../../domain/Engine.js"
import type { ClusterPaused } from "../../domain/Errors.js"
import type { AnalyticalEngine } from "../../domain/Engine.js"
import type { ClusterId, DatabaseName } from "../../domain/Ids.js"
import { MetricsWriteLog, SeriesDatabase } from "../../domain/MetricsWriteLog.js"
import type { LoggedWrite } from "../../domain/MetricsWriteLog.js"
import { ClusterEvents } from "../clusters/ClusterEvents.js"
import { enginesEmbedded, SluiceConfig } from "../config/SluiceConfig.js"
import { DatabaseEvents } from "../databases/DatabaseEvents.js"
import { engineDatabase } from "../databases/EngineDatabase.js"
import type { GroupCommit } from "./GroupCommit.js"
import { makeGroupCommit } from "./GroupCommit.js"
import type { TableRows } from "./MetricsTables.js"
import { createTables, insertRows, tableRows, tablesParts } from "./MetricsTables.js"
import type { DecodedWrite } from "./RemoteWriteDecode.js"
import { decodeRemoteWrite, makeDecoderMemory } from "./RemoteWriteDecode.js"
import { makeSeriesRowsWritten } from "./SeriesRowsWritten.js"
import { withoutStored } from "./StoredSamples.js"
import { makeTablesVersions } from "./TablesVersions.js"

/** Samples accepted and not yet stored, per database, past which a write waits. */
const WAITING_SAMPLES = 1_000_000
const FINAL_FLUSH = Duration.seconds(10)
/**
 * A database's accepted samples go into the engine once this many wait or the first has
 * waited a second, sooner when a read waits for them (GroupCommit.ts): about 40 bodies
 * of a 4-shard sender an insert. Each insert is a part the engine merges later, so a
 * steady stream of small ones costs more than their rows: from 4 shards, batches cost
 * less CPU than storing each write at once, and one body at a time costs the same (writes
 * are answered from the log, so holding them back delays no answer).
 */
const BATCH_SAMPLES = 100_000
const BATCH_LINGER = Duration.seconds(1)

interface Accepted {
  readonly rows: TableRows
  readonly samples: number
  readonly logged: LoggedWrite
}

type StoreError = EngineUnavailable | ClusterPaused

export class SeriesStore extends Effect.Service<SeriesStore>()("sluice/SeriesStore", {
  scoped: Effect.gen(function* () {
    const engines = yield* Engines
    const log = yield* MetricsWriteLog
    // On a ClickHouse server nodes share, the log on a node's disk goes with the node: a
    // write is acknowledged once the engine holds it, the writes arriving meanwhile going
    // together in the next insert. Under `bench scale-writes`, acknowledging after that
    // group commit was far faster than waiting for an async insert of each write (the
    // server made a part of each), and somewhat slower than the log's own append.
    const acknowledgeOnceStored = !enginesEmbedded(yield* SluiceConfig)
    const clusterEvents = yield* ClusterEvents
    const databaseEvents = yield* DatabaseEvents
    // Batches run in a scope of their own, closed after the final flush below.
    const scope = yield* Scope.fork(yield* Effect.scope, ExecutionStrategy.sequential)
    // Databases whose tables exist: `CREATE … IF NOT EXISTS` runs once per database.
    const created = new Set<string>()
    const written = makeSeriesRowsWritten()
    const versions = makeTablesVersions()
    const commits = new Map<string, GroupCommit<Accepted, StoreError>>()

    const keyOf = (where: SeriesDatabase) => `${where.clusterId}/${where.database}`

    /** The database's engine, its series tables created on first use. */
    const prepared = (where: SeriesDatabase) =>
      Effect.gen(function* () {
        const engine = yield* engines.forCluster(where.clusterId)
        const name = engineDatabase(engine, where.database)
        if (!created.has(keyOf(where))) {
          yield* createTables(engine, name).pipe(Effect.catchAll(refused))
          created.add(keyOf(where))
        }
        return { engine, name }
      })

    // Writes whose samples may be stored already (StoredSamples.ts): replayed from the
    // log, or in a batch that failed.
    const maybeStored = new WeakSet<Accepted>()

    /** The batch's rows, the samples of writes that may be stored already without those that are. */
    const rowsToInsert = (engine: AnalyticalEngine, name: string, batch: ReadonlyArray<Accepted>) =>
      Effect.gen(function* () {
        const rows = batch.map((one) => one.rows)
        const again = batch.filter((one) => maybeStored.has(one))
        if (again.length === 0) return rows
        const samples = yield* withoutStored(
          engine,
          name,
          again.flatMap((one) => one.rows.samples)
        )
        return [
          ...rows.map((one, index) =>
            maybeStored.has(batch[index]!) ? { ...one, samples: [] } : one
          ),
          { samples, seriesRows: [], metadata: [] }
        ]
      })

    const storeBatch = (where: SeriesDatabase) => (batch: ReadonlyArray<Accepted>) =>
      Effect.gen(function* () {
        const { engine, name } = yield* prepared(where)
        const rows = yield* rowsToInsert(engine, name, batch).pipe(Effect.catchAll(refused))
        yield* insertRows(engine, name, rows).pipe(Effect.catchAll(refused))
        yield* log.release(batch.map((one) => one.logged))
      }).pipe(
        // The engine may have taken the rows and failed after: the next attempt checks.
        Effect.tapError(() => Effect.sync(() => batch.forEach((one) => maybeStored.add(one)))),
        // Stored or not, some of the batch's rows may be in the tables now.
        Effect.ensuring(Effect.sync(() => versions.changed(keyOf(where)))),
        // The tables may be what is missing (a database dropped and made again): the next
        // attempt creates them first.
        Effect.tapError(() => Effect.sync(() => created.delete(keyOf(where)))),
        Effect.withSpan("SeriesStore.storeBatch")
      )

    const commitOf = (where: SeriesDatabase) => {
      let commit = commits.get(keyOf(where))
      if (commit === undefined) {
        commit = makeGroupCommit({
          store: storeBatch(where),
          weight: (one: Accepted) => one.samples,
          bound: WAITING_SAMPLES,
          batchWeight: BATCH_SAMPLES,
          linger: BATCH_LINGER,
          scope
        })
        commits.set(keyOf(where), commit)
      }
      return commit
    }

    const accepted = (
      where: SeriesDatabase,
      write: DecodedWrite,
      logged: LoggedWrite,
      replayed = false
    ) =>
      Effect.suspend(() => {
        const one: Accepted = {
          rows: tableRows(write, written.rowsFor(keyOf(where), write.series)),
          samples: write.samples,
          logged
        }
        if (replayed) maybeStored.add(one)
        return commitOf(where).add(one)
      })

    // A deleted cluster's or database's writes have nowhere to go: dropped, here and in
    // the log, with what is remembered of the database, so one made again under its name
    // starts empty.
    const forget = (cluster: ClusterId, database?: DatabaseName) =>
      Effect.suspend(() => {
        const gone = new EngineUnavailable({
          message: database === undefined ? "The cluster was deleted." : "The database was deleted."
        })
        const prefix = database === undefined ? `${cluster}/` : `${cluster}/${database}`
        const matches = (key: string) =>
          database === undefined ? key.startsWith(prefix) : key === prefix
        const matching = [...commits.keys()].filter(matches)
        for (const key of matching) {
          created.delete(key)
          written.forget(key)
        }
        versions.forget(matches)
        return Effect.zipRight(
          Effect.forEach(matching, (key) => commits.get(key)!.abandon(gone), { discard: true }),
          Effect.sync(() => matching.forEach((key) => commits.delete(key)))
        ).pipe(Effect.zipRight(log.forget(cluster, database)))
      })
    yield* clusterEvents.subscribe(({ cluster, change }) =>
      change === "deleted" ? forget(cluster) : Effect.void
    )
    yield* databaseEvents.subscribe(({ cluster, database }) => forget(cluster, database))

    // On shutdown, what was accepted is stored before the engines close, within a bound
    // of real time (also under a test's clock); the log keeps what is left for the next start.
    yield* Effect.addFinalizer(() =>
      Effect.forEach(commits.values(), (commit) => Effect.ignore(commit.settled), {
        discard: true
      }).pipe(Effect.timeout(FINAL_FLUSH), Effect.ignore, Effect.withClock(Clock.make()))
    )

    // What the log held at start: stored again, in the background, in the order accepted.
    const known = makeDecoderMemory()
    for (const { write: logged, body } of yield* log.unreleased) {
      const decoded = yield* Effect.either(decodeRemoteWrite(body, Number.MAX_SAFE_INTEGER, known))
      // A body cut short by a crash while it was written was never acknowledged.
      if (decoded._tag === "Left") yield* log.release([logged])
      else yield* accepted(logged.where, decoded.right, logged, true)
    }

    return {
      /**
       * Accepts `write` (`body` is its remote-write body, what the log keeps). Fails
       * only when the cluster's engine cannot be reached or the writes waiting for it
       * are at the bound and cannot be stored.
       */
      store: Effect.fn("SeriesStore.store")(function* (
        clusterId: ClusterId,
        database: DatabaseName,
        write: DecodedWrite,
        body: Uint8Array
      ) {
        const where = new SeriesDatabase({ clusterId, database }, { disableValidation: true })
        // A paused cluster refuses the write rather than queueing it.
        yield* prepared(where)
        yield* commitOf(where).room
        const logged = yield* log.append(where, body)
        yield* accepted(where, write, logged)
        if (acknowledgeOnceStored) yield* commitOf(where).settled
      }),

      /**
       * The database's series tables exist and hold every write accepted before this;
       * answers their version (TablesVersions.ts): reads under one version saw the same
       * samples. Untraced: every read asks, and the answer is mostly in memory
       * (AppAccessLive.ts says what a span costs); a wait for writes or tables is traced
       * by what it waits on.
       */
      readable: Effect.fnUntraced(function* (clusterId: ClusterId, database: DatabaseName) {
        const where = new SeriesDatabase({ clusterId, database }, { disableValidation: true })
        yield* commitOf(where).settled
        const { engine, name } = yield* prepared(where)
        return yield* versions.current(keyOf(where), tablesParts(engine, name))
      })
    }
  })
}) {}

// The engine refusing rows this service decoded and checked is not the sender's to fix;
// the writes stay logged and are stored again on the next attempt. The engine's words go
// to the service's log, not to the caller.
const refused = (error: { readonly message: string }) =>
  Effect.zipRight(
    Effect.logWarning("metrics-app: the engine did not store accepted samples", error.message),
    Effect.fail(
      new EngineUnavailable({
        message:
          "The cluster's engine did not store accepted samples; they are kept and stored on the next request."
      })
    )
  )
