import { Effect } from "effect"
import { spawn } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"

const fixture = path.join(import.meta.dirname, "fixtures", "crashing-control-plane.ts")

/** Inodes of TCP sockets in LISTEN state (0A) that this process holds open. */
export const listeningTcpSocketsOfThisProcess = (): ReadonlyArray<string> => {
  const listening = new Set(
    ["/proc/net/tcp", "/proc/net/tcp6"].flatMap((table) =>
      fs
        .readFileSync(table, "utf8")
        .split("\n")
        .slice(1)
        .map((line) => line.trim().split(/\s+/))
        .filter((fields) => fields[3] === "0A")
        .map((fields) => fields[9] ?? "")
    )
  )
  return fs
    .readdirSync("/proc/self/fd")
    .flatMap((fd) => {
      try {
        return [fs.readlinkSync(`/proc/self/fd/${fd}`)]
      } catch {
        return []
      }
    })
    .flatMap((link) => /^socket:\[(\d+)\]$/.exec(link)?.[1] ?? [])
    .filter((inode) => listening.has(inode))
}

/**
 * Another process holding the control plane on `dataDir`, ready once it has committed a
 * row; `kill` ends it with SIGKILL, as a crash would.
 */
export const startCrashingControlPlane = (dataDir: string) =>
  Effect.acquireRelease(
    Effect.async<{ readonly pid: number; readonly kill: Effect.Effect<void> }, Error>((resume) => {
      const child = spawn(process.execPath, ["--import", "tsx", fixture, dataDir], {
        stdio: ["ignore", "pipe", "inherit"]
      })
      const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()))
      const kill = Effect.promise(() => {
        child.kill("SIGKILL")
        return exited
      })
      let ready = false
      child.stdout.on("data", (chunk: Buffer) => {
        if (!ready && chunk.toString().includes("ready") && child.pid !== undefined) {
          ready = true
          resume(Effect.succeed({ pid: child.pid, kill }))
        }
      })
      child.once("exit", (code) => {
        if (!ready) resume(Effect.fail(new Error(`control plane process exited (${code})`)))
      })
    }),
    (child) => child.kill
  )
