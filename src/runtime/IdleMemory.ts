/**
 * Gives back what an idle process holds but does not use, once its event loop has been
 * mostly idle for a few seconds.
 *
 * - V8's young generation (every process): start-up or a burst of requests grows its
 *   semi-spaces to their 16 MB maximum, and V8 only shrinks them in a garbage collection,
 *   which an idle process never has. A full collection returns it, for a little CPU. Its
 *   maximum stays, so it grows back at the first burst of work (a smaller maximum cost
 *   more CPU on JSON work).
 * - Other holdings a process adds, as the engine worker adds the engine library's pages
 *   (`FilePages.ts`).
 */
import { Duration, Effect, Layer, Schedule } from "effect"
import { performance } from "node:perf_hooks"
import * as v8 from "node:v8"
import * as vm from "node:vm"
import { EXPOSE_GC } from "./v8Flags.cjs"

/** Memory an idle process can give back. */
export interface Holding {
  /** What giving back would return now, in bytes. */
  readonly heldBytes: () => number
  /** At or below this, the holding is left alone. */
  readonly keptBytes: number
  readonly giveBack: () => void
}

export interface IdleMemoryOptions {
  /** How often the event loop's utilization is read. */
  readonly every: Duration.DurationInput
  /**
   * How long into an idle stretch each try is made, until every holding is back to what
   * it keeps: V8 shrinks the young generation only when the last ~5 s allocated little,
   * which an earlier try (soon after start-up, say) may not have met.
   */
  readonly triesAfter: ReadonlyArray<Duration.DurationInput>
  /**
   * Below this share of an interval busy, the process is idle: an idle service's own
   * background work keeps its loop a little busy, more so on a loaded machine.
   */
  readonly idleUtilization: number
  /** The least time from the first try of one idle stretch to the next's. */
  readonly minimumGap: Duration.DurationInput
  /** What is given back: this process's young generation unless given others. */
  readonly holdings: ReadonlyArray<Holding>
}

const v8YoungBytes = () =>
  v8.getHeapSpaceStatistics().find((space) => space.space_name === "new_space")
    ?.physical_space_size ?? 0

/**
 * V8's `gc` function, which Node only exposes under `--expose-gc`: a context created after
 * the flag is set has it (the process's own global does not).
 */
const collector = (): (() => void) => {
  v8.setFlagsFromString(EXPOSE_GC)
  const gc: unknown = vm.runInNewContext("gc")
  return typeof gc === "function" ? () => gc() : () => {}
}

/** This process's young generation, given back by a full collection; 8 MB of it kept. */
export const youngGeneration = (): Holding => ({
  heldBytes: v8YoungBytes,
  keptBytes: 8 * 1024 * 1024,
  giveBack: collector()
})

const defaults = {
  every: "1 second",
  triesAfter: ["3 seconds", "8 seconds", "16 seconds"],
  idleUtilization: 0.2,
  minimumGap: "30 seconds"
} satisfies Omit<IdleMemoryOptions, "holdings">

/**
 * Runs until interrupted: in each idle stretch, at each of `triesAfter`, every holding
 * above what it keeps is given back, until a try finds none; no try in a stretch that
 * starts within `minimumGap` of the last stretch's first, so light traffic costs next to
 * nothing.
 */
export const giveBackWhenIdle = (options: Partial<IdleMemoryOptions> = {}) =>
  Effect.suspend(() => {
    const settings = { ...defaults, ...options }
    const holdings = settings.holdings ?? [youngGeneration()]
    const tries = settings.triesAfter.map(Duration.toMillis)
    const gapMillis = Duration.toMillis(settings.minimumGap)
    let last = performance.eventLoopUtilization()
    let idleSince = performance.now()
    let tried = 0
    let firstTryAt = -Infinity
    const check = Effect.sync(() => {
      const now = performance.eventLoopUtilization()
      const busy = performance.eventLoopUtilization(now, last).utilization
      last = now
      const at = performance.now()
      if (busy >= settings.idleUtilization) {
        idleSince = at
        tried = 0
        return
      }
      const next = tries[tried]
      if (next === undefined || at - idleSince < next) return
      if (tried === 0 && at - firstTryAt < gapMillis) return
      if (tried === 0) firstTryAt = at
      // Reading a holding may cost (the file pages read `/proc/self/smaps`): each is read
      // once a try, and a try that finds nothing due ends the stretch's tries. Read at
      // every check instead, an idle worker read its `smaps` every second.
      const due = holdings.filter((holding) => holding.heldBytes() > holding.keptBytes)
      tried = due.length === 0 ? tries.length : tried + 1
      for (const holding of due) holding.giveBack()
      // The giving back's own time is not the loop being busy: counted, it ended the idle
      // stretch it was tried in, and the gap then held off the stretch's later tries.
      last = performance.eventLoopUtilization()
    })
    return Effect.repeat(check, Schedule.spaced(settings.every))
  })

/** `giveBackWhenIdle` for as long as the layer's scope is open. */
export const layer = Layer.scopedDiscard(Effect.forkScoped(giveBackWhenIdle()))
