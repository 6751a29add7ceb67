/**
 * A private directory for the service's Unix sockets: the embedded PostgreSQL's (no other
 * local user may reach the unauthenticated server) and the cluster
 * engine workers'. A socket's path must fit `sun_path`, which the system does not check
 * for us: libuv cuts a longer path short, so a socket is made under another name, two
 * clusters' sockets can meet, and a stale one left by a crash is never found again (an
 * engine worker then failed to listen on every restart, with a 66-byte data directory).
 */
import { Effect } from "effect"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"

// sun_path holds 108 bytes on Linux and 104 on macOS, the terminating NUL included.
const maxSocketPathBytes = 103

export interface SocketDirectory {
  readonly directory: string
  /** The path of the socket `name` (no longer than the `longestName` prepared for). */
  readonly socketPath: (name: string) => string
}

const fits = (directory: string, name: string): boolean =>
  Buffer.byteLength(path.join(directory, name)) <= maxSocketPathBytes

const makePrivate = (directory: string): void => {
  fs.mkdirSync(directory, { mode: 0o700, recursive: true })
  const stat = fs.lstatSync(directory)
  if (!stat.isDirectory()) throw new Error(`${directory} is not a directory`)
  const uid = process.getuid?.()
  if (uid !== undefined && stat.uid !== uid) throw new Error(`${directory} belongs to another user`)
  // mkdir leaves an existing directory's mode alone.
  fs.chmodSync(directory, 0o700)
}

const TEMP_PREFIX = "sluice-"

const privateDirectory = (directory: string) =>
  Effect.try(() => makePrivate(directory)).pipe(
    Effect.orDie,
    Effect.as<SocketDirectory>({
      directory,
      socketPath: (name: string) => path.join(directory, name)
    })
  )

/**
 * `<dataDir>/run` when a socket named `longestName` fits there, else a fresh 0700
 * directory under the system temp dir (or `/tmp`, when that one is too long too: macOS
 * gives each user one of ~50 bytes) that is removed when the scope closes.
 */
export const prepare = Effect.fn("SocketDirectory.prepare")(function* (
  dataDir: string,
  longestName: string
) {
  const preferred = path.join(dataDir, "run")
  if (fits(preferred, longestName)) return yield* privateDirectory(preferred)
  // `mkdtemp` adds six characters to the prefix.
  const base = [os.tmpdir(), "/tmp"].find((candidate) =>
    fits(path.join(candidate, `${TEMP_PREFIX}XXXXXX`), longestName)
  )
  if (base === undefined) {
    return yield* Effect.dieMessage(`no socket directory short enough for ${longestName}`)
  }
  const made = yield* Effect.acquireRelease(
    Effect.sync(() => fs.mkdtempSync(path.join(base, TEMP_PREFIX))),
    (directory) => Effect.sync(() => fs.rmSync(directory, { recursive: true, force: true }))
  )
  return yield* privateDirectory(made)
})
