/**
 * The embedded engine: chDB in this process. libchdb binds one data directory per
 * process, so each cluster's engine runs this in its own worker process
 * (`src/provisioner/EngineWorker.ts`).
 */
import { createClient } from "@clickhouse/client"
import type { ClickHouseClient } from "@clickhouse/client"
import { drainPending, Session } from "chdb"
import { createChdbConnection } from "chdb/connection"
import { Effect } from "effect"
import type { Scope } from "effect"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { EngineUnavailable } from "../../domain/Engine.js"
import type { EngineSettings } from "../../domain/Engine.js"
import * as ClickHouseEngine from "./ClickHouseEngine.js"
import { cleanEngineMessage } from "./EngineMessage.js"
import { nativeSession } from "./NativeSession.js"
import type { StatementClient } from "./Statements.js"

/** A client of chDB in this process over `dir` (`:memory:` keeps nothing on disk). */
export const client = (dir: string): ClickHouseClient => session(dir).client

/**
 * Where binary inserts leave their bodies for the engine to read (NativeSession.ts):
 * inside the engine's own directory, or a temporary one for `:memory:`.
 */
const insertFiles = (dir: string) =>
  dir === ":memory:"
    ? path.join(os.tmpdir(), `sluice-insert-files-${process.pid}`)
    : path.join(dir, "insert-files")

/** A fresh session over `dir`: the client, and chDB's own calls on the same session. */
const session = (dir: string): StatementClient => {
  const connection = createChdbConnection({ path: dir })
  return {
    // Seam cast: chDB types its connection against the separate @clickhouse/client-common
    // package, whose `SettingsMap` class (a private field) never matches the client's own
    // bundled copy, so the two `Connection` types do not overlap for TypeScript.
    client: createClient({ connection: connection as never }),
    native: nativeSession(connection.chdb, insertFiles(dir))
  }
}

/** How statements run on chDB in this process over `dir`, each in a session of its own. */
export const statementOptions = (dir: string, limits: EngineSettings = {}) => ({
  clientPerStatement: () => session(dir),
  drain: drainPending,
  defaultSettings: limits
})

/** What the whole engine may use, whatever its statements ask for. */
export interface ServerLimits {
  /** The memory all statements together may hold (`max_server_memory_usage`). */
  readonly maxMemoryBytes?: number
}

/**
 * The engine's server, started with `server`'s limits: libchdb starts it with the first
 * session of the process, from that session's arguments, and every later session shares
 * it while one stays open. So this session opens first and closes last.
 */
const startServer = (dir: string, server: ServerLimits) =>
  Effect.acquireRelease(
    Effect.sync(() => {
      const args =
        server.maxMemoryBytes === undefined
          ? []
          : [`--max_server_memory_usage=${Math.floor(server.maxMemoryBytes)}`]
      return new Session(dir, { connectionArgs: args })
    }),
    (session) => Effect.sync(() => session.close())
  )

const unavailable = (error: unknown) =>
  new EngineUnavailable({
    message: `The embedded engine cannot open: ${cleanEngineMessage(error instanceof Error ? error.message : String(error))}`
  })

/**
 * Opens the engine over `dir` (created, mode 0700). `limits` (e.g. threads and memory of
 * the cluster's size) apply to every statement, `server` to all of them together.
 * Closing the scope waits for its work, including work aborted but still running in the
 * engine, then closes it.
 */
export const open = (
  dir: string,
  limits: EngineSettings = {},
  server: ServerLimits = {}
): Effect.Effect<ClickHouseEngine.LocalEngine, EngineUnavailable, Scope.Scope> =>
  Effect.gen(function* () {
    yield* Effect.try({
      try: () => {
        // `:memory:` names no directory (one of that name was made in the working directory).
        if (dir !== ":memory:") {
          fs.mkdirSync(dir, { recursive: true, mode: 0o700 })
          fs.chmodSync(dir, 0o700)
        }
        // Bodies a process that stopped mid-insert left behind.
        fs.rmSync(insertFiles(dir), { recursive: true, force: true })
      },
      catch: unavailable
    })
    if (dir !== ":memory:") yield* Effect.mapError(startServer(dir, server), unavailable)
    const home = yield* Effect.try({ try: () => client(dir), catch: unavailable })
    return yield* ClickHouseEngine.make(home, statementOptions(dir, limits))
  })
