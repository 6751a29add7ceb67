/**
 * Where the embedded PostgreSQL listens: a Unix socket in a directory only this user can
 * open, so no other local user reaches the unauthenticated server (decisions.md §1).
 */
import { Effect } from "effect"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"

/** The file name libpq-style clients derive from `host: <dir>, port: 5432`. */
export const socketFileName = ".s.PGSQL.5432"
export const socketPort = 5432

// sun_path holds 108 bytes on Linux and 104 on macOS, the terminating NUL included.
const maxSocketPathBytes = 103

export interface SocketDirectory {
  readonly directory: string
  readonly socketPath: string
}

const fits = (directory: string): boolean =>
  Buffer.byteLength(path.join(directory, socketFileName)) <= maxSocketPathBytes

const makePrivate = (directory: string): void => {
  fs.mkdirSync(directory, { mode: 0o700, recursive: true })
  const stat = fs.lstatSync(directory)
  if (!stat.isDirectory()) throw new Error(`${directory} is not a directory`)
  const uid = process.getuid?.()
  if (uid !== undefined && stat.uid !== uid) throw new Error(`${directory} belongs to another user`)
  // mkdir leaves an existing directory's mode alone.
  fs.chmodSync(directory, 0o700)
}

const removeStaleSocket = (socketPath: string): void => {
  // The caller holds the data-dir lock, so whatever sits here was left by a crash.
  fs.rmSync(socketPath, { force: true })
}

/**
 * `<dataDir>/run` when the socket path fits, else a fresh 0700 directory under the system
 * temp dir that is removed when the scope closes.
 */
export const prepare = Effect.fn("ControlPlane.prepareSocketDirectory")(function* (
  dataDir: string
) {
  const preferred = path.join(dataDir, "run")
  const directory = fits(preferred)
    ? preferred
    : yield* Effect.acquireRelease(
        Effect.sync(() => fs.mkdtempSync(path.join(os.tmpdir(), "sluice-"))),
        (directory) => Effect.sync(() => fs.rmSync(directory, { recursive: true, force: true }))
      )
  if (!fits(directory)) {
    return yield* Effect.dieMessage(`no socket directory short enough for ${socketFileName}`)
  }
  const socketPath = path.join(directory, socketFileName)
  yield* Effect.try(() => {
    makePrivate(directory)
    removeStaleSocket(socketPath)
  }).pipe(Effect.orDie)
  return { directory, socketPath } satisfies SocketDirectory
})
