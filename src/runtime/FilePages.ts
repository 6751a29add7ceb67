/**
 * The pages of a process's code files that it holds resident but does not need while
 * idle, given back to the kernel (an `IdleMemory` holding). The engine worker touches
 * ~200 MB of chDB's library and of `node` while the engine starts (most of it code that
 * registers functions and formats, run once) and counted all of it in its RSS for as long
 * as it lived; a query afterwards needs ~50 MB of it. Released pages stay in the kernel's
 * page cache and are mapped again from there, without reading the disk, when next run.
 *
 * Only mappings that releasing cannot change are released: read-only, private mappings of
 * the files the process never unloads (the `node` executable and the engine library),
 * with none of their pages written (`Anonymous: 0 kB` in `/proc/self/smaps`; relocated
 * read-only data was written before it was made read-only, and is left alone).
 */
import * as fs from "node:fs"
import type { Holding } from "./IdleMemory.js"
import type { Release } from "./ReleasePages.js"

export interface Mapping {
  readonly start: bigint
  readonly end: bigint
  readonly file: string
  readonly residentBytes: number
}

const header = /^([0-9a-f]+)-([0-9a-f]+) (\S{4}) \S+ \S+ \d+\s*(.*)$/
const field = /^(\w+):\s+(\d+) kB$/

/**
 * The mappings of `smaps` (the text of `/proc/PID/smaps`) that may be released: read-only
 * and private (`r--p`, `r-xp`), of a file `isKept` accepts, no page of them written, some
 * of them resident.
 */
export const releasable = (
  smaps: string,
  isKept: (file: string) => boolean
): ReadonlyArray<Mapping> => {
  const found: Array<Mapping> = []
  let current:
    | { start: bigint; end: bigint; perms: string; file: string; rss: number; anonymous: number }
    | undefined
  const close = () => {
    if (
      current !== undefined &&
      (current.perms === "r--p" || current.perms === "r-xp") &&
      isKept(current.file) &&
      current.anonymous === 0 &&
      current.rss > 0
    ) {
      const { start, end, file, rss } = current
      found.push({ start, end, file, residentBytes: rss * 1024 })
    }
  }
  for (const line of smaps.split("\n")) {
    const mapping = header.exec(line)
    if (mapping !== null) {
      close()
      current = {
        start: BigInt(`0x${mapping[1]}`),
        end: BigInt(`0x${mapping[2]}`),
        perms: mapping[3]!,
        file: mapping[4]!,
        rss: 0,
        // Unknown until read: a mapping whose count is missing is not released.
        anonymous: -1
      }
      continue
    }
    const value = field.exec(line)
    if (value === null || current === undefined) continue
    if (value[1] === "Rss") current.rss = Number(value[2])
    if (value[1] === "Anonymous") current.anonymous = Number(value[2])
  }
  close()
  return found
}

const residentBytes = (mappings: ReadonlyArray<Mapping>) =>
  mappings.reduce((sum, mapping) => sum + mapping.residentBytes, 0)

/**
 * The resident pages of the files `isKept` names, released with `release` once this
 * process is idle; 16 MB of them are left alone. A worker's next query maps part of them
 * again, a few milliseconds of page faults; under light traffic (its loop idle by the
 * measure of `IdleMemory`) that happens at most once a try of an idle stretch. Keeping
 * more would spare those faults but leave every idle worker holding what its last queries
 * mapped (the figures: "Idle footprint" in `test/bench/README.md`).
 */
export const holding = (release: Release, isKept: (file: string) => boolean): Holding => {
  // What the try's reading found is what it releases: the files are never unloaded, so
  // their mappings stay where they were read, and `smaps` is read once a try.
  let lastRead: ReadonlyArray<Mapping> = []
  return {
    heldBytes: () => {
      lastRead = releasable(fs.readFileSync("/proc/self/smaps", "utf8"), isKept)
      return residentBytes(lastRead)
    },
    keptBytes: 16 * 1024 * 1024,
    giveBack: () => {
      for (const mapping of lastRead) release(mapping.start, mapping.end - mapping.start)
    }
  }
}

/** The `node` executable and chDB's engine library: loaded at start, never unloaded. */
export const engineWorkerFiles = (): ((file: string) => boolean) => {
  const node = fs.realpathSync(process.execPath)
  return (file) => file === node || file.endsWith("/libchdb.so")
}
