/**
 * Embedded engines: chDB in this process. libchdb binds one data directory per
 * process, so this process serves one cluster's engine; moving each cluster into its
 * own worker process only has to move `open`.
 */
import { createClient } from "@clickhouse/client"
import type { ClickHouseClient } from "@clickhouse/client"
import { drainPending } from "chdb"
import { createChdbConnection } from "chdb/connection"
import { Effect, Layer, Scope } from "effect"
import * as fs from "node:fs"
import * as path from "node:path"
import { Engines, EngineUnavailable } from "../../domain/Engine.js"
import type { AnalyticalEngine } from "../../domain/Engine.js"
import type { ClusterId } from "../../domain/Ids.js"
import * as ClickHouseEngine from "./ClickHouseEngine.js"
import { cleanEngineMessage } from "./EngineMessage.js"
import { nativeSession } from "./NativeSession.js"
import type { StatementClient } from "./Statements.js"

const client = (dir: string): ClickHouseClient => session(dir).client

/** A fresh session over `dir`: the client, and chDB's own calls on the same session. */
const session = (dir: string): StatementClient => {
  const connection = createChdbConnection({ path: dir })
  return {
    // Seam cast: chDB types its connection against the separate @clickhouse/client-common
    // package, whose `SettingsMap` class (a private field) never matches the client's own
    // bundled copy, so the two `Connection` types do not overlap for TypeScript.
    client: createClient({ connection: connection as never }),
    native: nativeSession(connection.chdb)
  }
}

/**
 * Opens the engine over `dir` (created, mode 0700). Closing the scope waits for its
 * work, including work aborted but still running in the engine, then closes it.
 */
export const open = (
  dir: string
): Effect.Effect<AnalyticalEngine, EngineUnavailable, Scope.Scope> =>
  Effect.gen(function* () {
    const home = yield* Effect.try({
      try: () => {
        fs.mkdirSync(dir, { recursive: true, mode: 0o700 })
        fs.chmodSync(dir, 0o700)
        return client(dir)
      },
      catch: (error) =>
        new EngineUnavailable({
          message: `The embedded engine cannot open: ${cleanEngineMessage(error instanceof Error ? error.message : String(error))}`
        })
    })
    return yield* ClickHouseEngine.make(home, {
      clientPerStatement: () => session(dir),
      drain: drainPending,
      // chDB prints 64-bit integers bare by default, which JSON.parse rounds; a
      // ClickHouse server quotes them by default.
      defaultSettings: { output_format_json_quote_64bit_integers: 1 }
    })
  })

/** `Engines` for the one cluster this process hosts, under `<dataDir>/clusters/<id>`. */
export const layer = (options: { readonly dataDir: string }) =>
  Layer.scoped(
    Engines,
    Effect.gen(function* () {
      const scope = yield* Effect.scope
      const lock = yield* Effect.makeSemaphore(1)
      let hosted: { readonly cluster: ClusterId; readonly engine: AnalyticalEngine } | undefined

      const forCluster = Effect.fn("Engines.forCluster")(function* (cluster: ClusterId) {
        if (hosted === undefined) {
          const engine = yield* Scope.extend(
            open(path.join(options.dataDir, "clusters", cluster)),
            scope
          )
          hosted = { cluster, engine }
        }
        if (hosted.cluster !== cluster) {
          return yield* new EngineUnavailable({
            message: "This process hosts one cluster's engine, and it belongs to another cluster"
          })
        }
        return hosted.engine
      }, lock.withPermits(1))

      return Engines.of({ forCluster })
    })
  )
