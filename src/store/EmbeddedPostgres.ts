/**
 * The embedded control plane: PGlite persisted at `<dataDir>/control-plane`, served over
 * the PostgreSQL wire protocol on a private Unix socket so that `@effect/sql-pg` reaches
 * it exactly like a real server. No TCP port is opened.
 */
import { PGlite } from "@electric-sql/pglite"
import { PGLiteSocketServer } from "@electric-sql/pglite-socket"
import { Context, Effect, Layer } from "effect"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import * as v8 from "node:v8"
import * as DataDirectory from "../config/DataDirectory.js"
import * as SocketDirectory from "../sockets/SocketDirectory.js"
import * as ControlPlaneTemplate from "./ControlPlaneTemplate.js"
import * as DataDirLock from "./DataDirLock.js"
import { LIFTOFF_ONLY } from "../runtime/v8Flags.cjs"

export { DataDirInUse } from "./DataDirLock.js"

export interface EmbeddedPostgresOptions {
  /** The service data dir (`SLUICE_DATA_DIR`); created if missing. */
  readonly dataDir: string
}

export class EmbeddedPostgres extends Context.Tag("sluice/store/EmbeddedPostgres")<
  EmbeddedPostgres,
  {
    /** Absolute PGlite data directory. */
    readonly pgliteDirectory: string
    /** Directory holding the socket: give it to a client as `host`, with port 5432. */
    readonly socketDirectory: string
    readonly socketPath: string
    readonly port: number
  }
>() {}

/**
 * PGlite's defaults size it as a database server: 128 MB of shared buffers, all of it
 * touched at start, in a process that also serves HTTP. The control plane's working set
 * (identities, clusters, the request log's tail) fits in far less; at 16 MB an idle
 * service holds far less memory.
 */
const startParams = [
  ...PGlite.defaultStartParams,
  ...["-c", "shared_buffers=16MB", "-c", "wal_buffers=1MB"]
]

/**
 * PGlite's WebAssembly stays on V8's baseline code: the optimising tier compiled it again
 * on background threads whose memory stayed with the process. A control-plane lookup
 * takes a little longer on it, the first thousands less, as nothing is compiled twice.
 * V8 reads the flag when it compiles a module, so it holds for PGlite's and any later
 * WebAssembly of the process.
 */
const createPGlite = (options: { readonly dataDir?: string; readonly loadDataDir?: Blob }) =>
  Effect.tryPromise(() => {
    v8.setFlagsFromString(LIFTOFF_ONLY)
    return PGlite.create({ ...options, startParams })
  }).pipe(Effect.orDie)

/** The file name libpq-style clients derive from `host: <dir>, port: 5432`. */
const SOCKET_FILE = ".s.PGSQL.5432"
const SOCKET_PORT = 5432

/** Where the server listens, with whatever a crash left at that path removed. */
const socketIn = (dataDir: string) =>
  Effect.gen(function* () {
    const sockets = yield* SocketDirectory.prepare(dataDir, SOCKET_FILE)
    const socketPath = sockets.socketPath(SOCKET_FILE)
    // The caller holds the data dir (its lock, or a directory of its own).
    yield* Effect.sync(() => fs.rmSync(socketPath, { force: true }))
    return { directory: sockets.directory, socketPath }
  })

/**
 * Opens the data dir and serves it until the scope closes; then the socket server stops
 * before PGlite closes, so the next start finds a cleanly closed data dir.
 */
export const open = Effect.fn("ControlPlane.openEmbedded")(function* (
  options: EmbeddedPostgresOptions
) {
  const dataDir = path.resolve(options.dataDir)
  yield* Effect.try(() => fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 })).pipe(
    Effect.orDie
  )
  yield* DataDirLock.acquire(dataDir)

  const pgliteDirectory = path.join(dataDir, "control-plane")
  yield* ControlPlaneTemplate.seed(pgliteDirectory)
  const db = yield* Effect.acquireRelease(createPGlite({ dataDir: pgliteDirectory }), (db) =>
    Effect.promise(() => db.close())
  )
  // PGlite sets its files' modes itself (0666 from its initial files), whatever the umask.
  yield* Effect.try(() => DataDirectory.tightenTree(pgliteDirectory)).pipe(Effect.orDie)

  const socket = yield* socketIn(dataDir)
  const server = new PGLiteSocketServer({ db, path: socket.socketPath, maxConnections: 1 })
  yield* Effect.acquireRelease(Effect.tryPromise(() => server.start()).pipe(Effect.orDie), () =>
    // A client that never hangs up must not keep PGlite from closing.
    Effect.promise(() => server.stop()).pipe(Effect.timeoutOption("5 seconds"))
  )

  return EmbeddedPostgres.of({
    pgliteDirectory,
    socketDirectory: socket.directory,
    socketPath: socket.socketPath,
    port: SOCKET_PORT
  })
})

export const layer = (options: EmbeddedPostgresOptions) =>
  Layer.scoped(EmbeddedPostgres, open(options))

/**
 * PGlite in memory, for tests and short-lived embedding programs: nothing persists. The
 * socket lives in a private temp directory removed when the scope closes.
 */
export const inMemory = Layer.scoped(
  EmbeddedPostgres,
  Effect.gen(function* () {
    const template = yield* ControlPlaneTemplate.archive
    const db = yield* Effect.acquireRelease(
      createPGlite(template === undefined ? {} : { loadDataDir: template }),
      (db) => Effect.promise(() => db.close())
    )
    const home = yield* Effect.acquireRelease(
      Effect.sync(() => fs.mkdtempSync(path.join(os.tmpdir(), "sluice-mem-"))),
      (directory) => Effect.sync(() => fs.rmSync(directory, { recursive: true, force: true }))
    )
    const socket = yield* socketIn(home)
    const server = new PGLiteSocketServer({ db, path: socket.socketPath, maxConnections: 1 })
    yield* Effect.acquireRelease(Effect.tryPromise(() => server.start()).pipe(Effect.orDie), () =>
      Effect.promise(() => server.stop()).pipe(Effect.timeoutOption("5 seconds"))
    )
    return EmbeddedPostgres.of({
      pgliteDirectory: "memory://",
      socketDirectory: socket.directory,
      socketPath: socket.socketPath,
      port: SOCKET_PORT
    })
  })
)
