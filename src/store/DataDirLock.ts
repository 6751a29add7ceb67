/**
 * PGlite is single-process: two processes writing one data directory corrupt it. A lock
 * file holding the owner's pid (and, on Linux, its start time, so that a pid reused
 * after a crash is not mistaken for a live owner) keeps a second process out.
 */
import { Data, Effect } from "effect"
import * as fs from "node:fs"
import * as path from "node:path"

/** Another live process (or this one) already serves the control plane from `dataDir`. */
export class DataDirInUse extends Data.TaggedError("DataDirInUse")<{
  readonly message: string
  readonly dataDir: string
  readonly pid: number
}> {}

interface Owner {
  readonly pid: number
  readonly started: string | null
}

const startTime = (pid: number): string | null => {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8")
    // Field 22 (start time); the command name in field 2 may hold spaces, so count after ")".
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19] ?? null
  } catch {
    return null
  }
}

const readOwner = (lockPath: string): Owner | null => {
  try {
    const parsed: unknown = JSON.parse(fs.readFileSync(lockPath, "utf8"))
    if (typeof parsed !== "object" || parsed === null) return null
    const pid = "pid" in parsed ? parsed.pid : undefined
    const started = "started" in parsed ? parsed.started : null
    return typeof pid === "number" && Number.isInteger(pid) && pid > 0
      ? { pid, started: typeof started === "string" ? started : null }
      : null
  } catch {
    return null
  }
}

const isErrno = (error: unknown, code: string): boolean =>
  error instanceof Error && (error as NodeJS.ErrnoException).code === code

const isAlive = (owner: Owner): boolean => {
  try {
    process.kill(owner.pid, 0)
  } catch (error) {
    if (!isErrno(error, "EPERM")) return false
  }
  const started = startTime(owner.pid)
  return owner.started === null || started === null || owner.started === started
}

/** Takes the lock for the scope's lifetime; a stale lock left by a dead process is replaced. */
export const acquire = Effect.fn("ControlPlane.lockDataDir")(function* (dataDir: string) {
  const lockPath = path.join(dataDir, "control-plane.lock")
  const content = JSON.stringify({ pid: process.pid, started: startTime(process.pid) })
  const tryCreate = (): boolean => {
    // Written aside then hard-linked: the lock appears atomically and never half-written.
    const staging = `${lockPath}.${process.pid}.${Date.now()}`
    fs.writeFileSync(staging, content, { mode: 0o600 })
    try {
      fs.linkSync(staging, lockPath)
      return true
    } catch (error) {
      if (isErrno(error, "EEXIST")) return false
      throw error
    } finally {
      fs.rmSync(staging, { force: true })
    }
  }
  const take = Effect.try({
    try: (): Owner | null => {
      for (let attempt = 0; attempt < 3; attempt++) {
        if (tryCreate()) return null
        const owner = readOwner(lockPath)
        if (owner !== null && isAlive(owner)) return owner
        fs.rmSync(lockPath, { force: true })
      }
      throw new Error(`could not take the lock ${lockPath}`)
    },
    catch: (cause) => cause
  }).pipe(
    Effect.orDie,
    Effect.flatMap((owner) =>
      owner === null
        ? Effect.void
        : new DataDirInUse({
            dataDir,
            pid: owner.pid,
            message:
              `The data directory ${dataDir} is in use by process ${owner.pid}` +
              (owner.pid === process.pid ? " (this process)" : "") +
              `; stop it first. If no sluice process is running, delete ${lockPath}.`
          })
    )
  )
  const release = Effect.sync(() => {
    if (fs.existsSync(lockPath) && fs.readFileSync(lockPath, "utf8") === content) {
      fs.rmSync(lockPath, { force: true })
    }
  })
  yield* Effect.acquireRelease(take, () => release)
})
