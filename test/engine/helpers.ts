import { Effect, Layer, Schedule, Schema, Stream } from "effect"
import type { Scope } from "effect"
import { randomUUID } from "node:crypto"
import { Engines, EngineQuery, InsertRequest } from "../../domain/Engine.js"
import { EngineSpec, Provisioner } from "../../domain/Provisioner.js"
import type {
  AnalyticalEngine,
  EngineError,
  EngineSettings,
  OpenedResult
} from "../../domain/Engine.js"
import { ClusterId } from "../../domain/Ids.js"

export const newClusterId = () => Schema.decodeSync(ClusterId)(randomUUID())

export const bytes = (text: string) => new TextEncoder().encode(text)

export const text = <E>(stream: Stream.Stream<Uint8Array, E>) =>
  stream.pipe(Stream.decodeText(), Stream.mkString)

/** An opened result's first pieces, and all of it as text (those pieces and the rest). */
export const readOpened = (opened: Effect.Effect<OpenedResult, EngineError, Scope.Scope>) =>
  Effect.scoped(
    Effect.flatMap(opened, ({ head, rest }) =>
      Effect.map(Stream.runCollect(rest ?? Stream.empty), (more) => ({
        head,
        text: new TextDecoder().decode(Buffer.concat([...head, ...more]))
      }))
    )
  )

export const queryText = (
  engine: AnalyticalEngine,
  sql: string,
  format: string,
  settings: EngineSettings = {}
) => text(engine.query(new EngineQuery({ sql, format, queryId: randomUUID(), settings })))

/**
 * Rows of `system.processes` still carrying `queryId`: the engine tags a query with it at
 * the end of its text, and other statements in `log_comment`.
 */
export const runningWith = (engine: AnalyticalEngine, queryId: string) =>
  queryText(
    engine,
    `SELECT count() FROM system.processes WHERE Settings['log_comment'] = '${queryId}' ` +
      `OR endsWith(query, '\\n/* sluice:${queryId} */')`,
    "TabSeparated"
  ).pipe(Effect.map((out) => Number(out.trim())))

/** Polls (every 20 ms, at most `attempts` times) until `queryId` shows up in the engine. */
export const awaitRunning = (engine: AnalyticalEngine, queryId: string, attempts = 250) =>
  runningWith(engine, queryId).pipe(
    Effect.filterOrFail(
      (n) => n > 0,
      () => new Error(`${queryId} never started (looked ${attempts} times)`)
    ),
    Effect.retry({ schedule: Schedule.spaced("20 millis"), times: attempts - 1 })
  )

/**
 * Polls (every 20 ms, at most `attempts` times) until `queryId` has left the engine.
 * chDB drops a statement from the process list only when its connection goes, which
 * waits for the engine to really stop.
 */
export const awaitGone = (engine: AnalyticalEngine, queryId: string, attempts = 250) =>
  runningWith(engine, queryId).pipe(
    Effect.filterOrFail(
      (n) => n === 0,
      () => new Error(`${queryId} still running (looked ${attempts} times)`)
    ),
    Effect.retry({ schedule: Schedule.spaced("20 millis"), times: attempts - 1 })
  )

/** `Engines` straight from a provisioner: a cluster's engine is started on first use. */
export const provisionedEngines = Layer.effect(
  Engines,
  Effect.map(Provisioner, (provisioner) =>
    Engines.of({
      forCluster: (cluster) =>
        Effect.zipRight(
          provisioner.start(
            new EngineSpec({
              clusterId: cluster,
              cpuCores: 2,
              memoryBytes: 4 * 1024 ** 3,
              replicas: 1
            })
          ),
          provisioner.engine(cluster)
        )
    })
  )
)

/**
 * `(n UInt64, n / 4 Float64)` for n in [0, rows) as `RowBinary`, then `extra` zero bytes
 * (5 cut the body short of a whole row). Checked by `countIf(v * 4 != n)` and `sum(n)`.
 */
export const numberedRowBinary = (rows: number, extra = 0) => {
  const bytes = Buffer.alloc(rows * 16 + extra)
  for (let n = 0; n < rows; n++) {
    bytes.writeBigUInt64LE(BigInt(n), n * 16)
    bytes.writeDoubleLE(n / 4, n * 16 + 8)
  }
  return bytes
}

/** An insert of `numberedRowBinary`'s rows into `default.<table>` `(n UInt64, v Float64)`. */
export const numberedInsert = (table: string) =>
  new InsertRequest({
    database: "default",
    table,
    format: "RowBinary",
    columns: ["n", "v"],
    queryId: randomUUID(),
    settings: {}
  })
