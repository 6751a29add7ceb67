/**
 * What the throughput benchmarks share: timing a run, concurrent clients over batches,
 * and the CPU processes spent meanwhile.
 */
import * as fs from "node:fs"

/** Seconds `run` took. */
export const timed = async (run: () => Promise<void>) => {
  const start = performance.now()
  await run()
  return (performance.now() - start) / 1000
}

/** Runs `each` over `batches` with `clients` concurrent workers, each taking the next. */
export const pool = async <A>(
  clients: number,
  batches: ReadonlyArray<A>,
  each: (batch: A) => Promise<void>
) => {
  let next = 0
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (next < batches.length) await each(batches[next++]!)
    })
  )
}

/** CPU seconds (user + system) a process has used, from /proc (Linux; 10 ms ticks). */
export const cpuSecondsOf = (pid: number) => {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ")
  return (Number(fields[11]) + Number(fields[12])) / 100
}

/** `read` (RSS, CPU seconds) summed over `pids`, leaving out any that exited meanwhile. */
export const sumOver = (pids: ReadonlyArray<number>, read: (pid: number) => number) =>
  pids.reduce((sum, pid) => {
    try {
      return sum + read(pid)
    } catch {
      return sum // exited meanwhile
    }
  }, 0)

/** CPU seconds `pids` used together. */
export const cpuSecondsOfAll = (pids: ReadonlyArray<number>) => sumOver(pids, cpuSecondsOf)

/**
 * Waits until `pids` together used under 5 % of a core over half a second (at most 30 s):
 * what one side of a comparison left running (Prometheus compacting its head, sluice
 * merging parts or writing its request log) must not fall on the other side's time.
 */
export const untilQuiet = async (pids: ReadonlyArray<number>) => {
  for (let tries = 0; tries < 60; tries++) {
    const before = cpuSecondsOfAll(pids)
    await new Promise((resolve) => setTimeout(resolve, 500))
    if (cpuSecondsOfAll(pids) - before < 0.025) return
  }
}

/** CPU seconds used so far by this process (all its threads) and by each of `pids`. */
export const cpuReading = (pids: ReadonlyArray<number>) => (): ReadonlyArray<number> => {
  const self = process.cpuUsage()
  return [(self.user + self.system) / 1e6, ...pids.map(cpuSecondsOf)]
}

/**
 * Seconds each side took to send its batches, in `rounds` interleaved rounds whose first
 * side rotates, so background merges in the engine fall on every side alike; and, for
 * each reading of `cpu`, what it grew by while the side ran.
 */
export const timeSides = async <K extends string>(
  rounds: number,
  clients: number,
  sides: Record<
    K,
    { readonly batches: ReadonlyArray<Uint8Array>; readonly send: (b: Uint8Array) => Promise<void> }
  >,
  cpu: () => ReadonlyArray<number> = () => []
) => {
  const names = Object.keys(sides) as Array<K>
  const seconds = Object.fromEntries(names.map((name) => [name, 0])) as Record<K, number>
  const used = Object.fromEntries(names.map((name) => [name, cpu().map(() => 0)])) as Record<
    K,
    Array<number>
  >
  for (let round = 0; round < rounds; round++) {
    const order = [...names.slice(round % names.length), ...names.slice(0, round % names.length)]
    for (const name of order) {
      const { batches, send } = sides[name]
      const perRound = batches.length / rounds
      const some = batches.slice(round * perRound, (round + 1) * perRound)
      const before = cpu()
      seconds[name] += await timed(() => pool(clients, some, send))
      cpu().forEach((now, i) => (used[name][i]! += now - before[i]!))
    }
  }
  return { seconds, used }
}

/**
 * `rounds` rounds over `batches`: each round sends its share through every side, the
 * first side rotating, so drift over the run falls on every side alike. Returns each
 * side's seconds per round and, for each reading of `cpu` (CPU seconds a process has
 * used so far), what it grew by while the side ran, summed over the rounds.
 */
export const roundsOf = async <K extends string, A>(
  rounds: number,
  clients: number,
  batches: ReadonlyArray<A>,
  sides: Record<K, (batch: A) => Promise<void>>,
  cpu: () => ReadonlyArray<number> = () => []
) => {
  const names = Object.keys(sides) as Array<K>
  const seconds = Object.fromEntries(names.map((name) => [name, [] as Array<number>])) as Record<
    K,
    Array<number>
  >
  const used = Object.fromEntries(names.map((name) => [name, cpu().map(() => 0)])) as Record<
    K,
    Array<number>
  >
  const perRound = Math.floor(batches.length / rounds)
  for (let round = 0; round < rounds; round++) {
    const some = batches.slice(round * perRound, (round + 1) * perRound)
    const order = [...names.slice(round % names.length), ...names.slice(0, round % names.length)]
    for (const name of order) {
      const before = cpu()
      seconds[name].push(await timed(() => pool(clients, some, sides[name])))
      cpu().forEach((now, i) => (used[name][i]! += now - before[i]!))
    }
  }
  return { seconds, used, sent: perRound * rounds }
}

export const median = (values: ReadonlyArray<number>) => {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2
}

/** The value below which `p` (0–1) of `values` fall (nearest rank). */
export const percentile = (values: ReadonlyArray<number>, p: number) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)]!
}
