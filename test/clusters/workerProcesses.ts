/**
 * Finding a cluster's engine worker process from outside, as an operator would: the
 * process that holds the cluster's socket `<dataDir>/run/engine-<id>.sock` (workers are
 * spawned ahead and told their cluster over IPC, so their arguments do not name it).
 * Linux only: reads /proc.
 */
import * as fs from "node:fs"

/** Inodes of the Unix sockets bound to a path ending in `suffix` (listening and accepted). */
const socketInodes = (suffix: string): Set<string> => {
  const inodes = new Set<string>()
  for (const line of fs.readFileSync("/proc/net/unix", "utf8").split("\n").slice(1)) {
    const fields = line.trim().split(/\s+/)
    if (fields.length >= 8 && fields[7]!.endsWith(suffix)) inodes.add(fields[6]!)
  }
  return inodes
}

const fdTargets = (pid: string): Array<string> => {
  try {
    return fs.readdirSync(`/proc/${pid}/fd`).map((fd) => {
      try {
        return fs.readlinkSync(`/proc/${pid}/fd/${fd}`)
      } catch {
        return "" // closed meanwhile
      }
    })
  } catch {
    return [] // the process exited meanwhile
  }
}

/** Pids of processes other than this one holding the cluster's engine socket. */
export const workerPids = (clusterId: string): Array<number> => {
  const inodes = socketInodes(`/engine-${clusterId}.sock`)
  if (inodes.size === 0) return []
  const sockets = new Set([...inodes].map((inode) => `socket:[${inode}]`))
  return fs
    .readdirSync("/proc")
    .filter((entry) => /^\d+$/.test(entry) && Number(entry) !== process.pid)
    .filter((pid) => fdTargets(pid).some((target) => sockets.has(target)))
    .map(Number)
}

/** Resident memory of a process in bytes (VmRSS of /proc/<pid>/status). */
export const rssOf = (pid: number): number => {
  const line = fs
    .readFileSync(`/proc/${pid}/status`, "utf8")
    .split("\n")
    .find((l) => l.startsWith("VmRSS:"))
  return Number(line?.replace(/\D+/g, "") ?? "0") * 1024
}

const isEngineWorker = (pid: string) => {
  // A spare shows its entry file; an assigned worker retitles itself `sluice-engine <id>`.
  const command = fs.readFileSync(`/proc/${pid}/cmdline`, "utf8")
  return command.includes("EngineWorker") || command.includes("sluice-engine")
}

/** Engine worker processes spawned by `parent` (assigned to a cluster or spare). */
export const childPids = (parent: number): Array<number> =>
  fs
    .readdirSync("/proc")
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8")
        // Fields after the command name (which may hold spaces): state, ppid, …
        const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1])
        return ppid === parent && isEngineWorker(pid)
      } catch {
        return false // the process exited meanwhile
      }
    })
    .map(Number)
