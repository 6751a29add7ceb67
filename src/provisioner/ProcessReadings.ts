/**
 * What a worker reports about itself: CPU cores used since the previous reading (process
 * CPU time over wall time), resident memory, and the engine's own query counters.
 */
import { Effect, Schema, Stream } from "effect"
import type { AnalyticalEngine } from "../../domain/Engine.js"
import { EngineQuery } from "../../domain/Engine.js"

const Counters = Schema.parseJson(
  Schema.Struct({ reads: Schema.NumberFromString, writes: Schema.NumberFromString })
)

const COUNTERS_SQL =
  "SELECT toString(sumIf(value, event = 'SelectQuery')) AS reads, " +
  "toString(sumIf(value, event = 'InsertQuery')) AS writes FROM system.events"

export const make = (engine: AnalyticalEngine) =>
  Effect.sync(() => {
    let last = { cpu: process.cpuUsage(), at: performance.now() }
    // Each reading is itself a SELECT; the engine counts it, the cluster's users did not.
    let ownReads = 0
    return Effect.gen(function* () {
      ownReads += 1
      const text = yield* engine
        .query(
          new EngineQuery({
            sql: COUNTERS_SQL,
            format: "JSONEachRow",
            queryId: crypto.randomUUID()
          })
        )
        .pipe(Stream.decodeText(), Stream.mkString, Effect.orDie)
      const counters = yield* Effect.orDie(Schema.decode(Counters)(text.trim()))
      const now = { cpu: process.cpuUsage(), at: performance.now() }
      const usedMicros = now.cpu.user - last.cpu.user + (now.cpu.system - last.cpu.system)
      const wallMicros = Math.max(1, (now.at - last.at) * 1000)
      last = now
      return {
        cpuCores: usedMicros / wallMicros,
        memoryBytes: process.memoryUsage.rss(),
        readQueries: Math.max(0, counters.reads - ownReads),
        writeQueries: counters.writes
      }
    })
  })
