/**
 * Gives V8's young generation back once a process is idle. Start-up (or a burst of
 * requests) grows its semi-spaces to their 16 MB maximum, and V8 only shrinks them in a
 * garbage collection, which an idle process never has: the service held its young
 * generation at full size doing nothing. A full collection once the event loop has been
 * mostly idle for a few seconds returns it, for a little CPU and a smaller RSS. Its
 * maximum stays, so it grows back at the first burst of work (a smaller maximum cost
 * more CPU on JSON work). */
import { Duration, Effect, Layer, Schedule } from "effect"
import { performance } from "node:perf_hooks"
import * as v8 from "node:v8"
import * as vm from "node:vm"

export interface IdleMemoryOptions {
  /** How often the event loop's utilization is read. */
  readonly every: Duration.DurationInput
  /**
   * How long into an idle stretch each collection is tried, until one gives the young
   * generation back: V8 shrinks it only when the last ~5 s allocated little, which an
   * earlier try (soon after start-up, say) may not have met.
   */
  readonly triesAfter: ReadonlyArray<Duration.DurationInput>
  /**
   * Below this share of an interval busy, the process is idle: an idle service's own
   * background work keeps its loop a little busy, more so on a loaded machine.
   */
  readonly idleUtilization: number
  /** The least time from the first collection of one idle stretch to the next's. */
  readonly minimumGap: Duration.DurationInput
  /** A young generation this large or smaller is left alone. */
  readonly keptYoungBytes: number
  /** The heap it reads and collects: this process's V8 heap unless given another. */
  readonly heap?: Heap
}

/** What the check needs of a heap. */
export interface Heap {
  readonly youngBytes: () => number
  readonly collect: () => void
}

const defaults: IdleMemoryOptions = {
  every: "1 second",
  triesAfter: ["3 seconds", "8 seconds", "16 seconds"],
  idleUtilization: 0.2,
  minimumGap: "30 seconds",
  keptYoungBytes: 8 * 1024 * 1024
}

const v8YoungBytes = () =>
  v8.getHeapSpaceStatistics().find((space) => space.space_name === "new_space")
    ?.physical_space_size ?? 0

/**
 * V8's `gc` function, which Node only exposes under `--expose-gc`: a context created after
 * the flag is set has it (the process's own global does not).
 */
const collector = (): (() => void) => {
  v8.setFlagsFromString("--expose-gc")
  const gc: unknown = vm.runInNewContext("gc")
  return typeof gc === "function" ? () => gc() : () => {}
}

/**
 * Runs until interrupted: in each idle stretch, a full collection at each of `triesAfter`
 * until the young generation is back to `keptYoungBytes`; none in a stretch that starts
 * within `minimumGap` of the last stretch's, so light traffic costs next to nothing.
 */
export const giveBackWhenIdle = (options: Partial<IdleMemoryOptions> = {}) =>
  Effect.suspend(() => {
    const settings = { ...defaults, ...options }
    const tries = settings.triesAfter.map(Duration.toMillis)
    const gapMillis = Duration.toMillis(settings.minimumGap)
    const heap = settings.heap ?? { youngBytes: v8YoungBytes, collect: collector() }
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
      if (heap.youngBytes() <= settings.keptYoungBytes) return
      if (tried === 0 && at - firstTryAt < gapMillis) return
      if (tried === 0) firstTryAt = at
      tried += 1
      heap.collect()
      // The collection's own time is not the loop being busy: counted, it ended the idle
      // stretch it was tried in, and the gap then held off the stretch's later tries.
      last = performance.eventLoopUtilization()
    })
    return Effect.repeat(check, Schedule.spaced(settings.every))
  })

/** `giveBackWhenIdle` for as long as the layer's scope is open. */
export const layer = Layer.scopedDiscard(Effect.forkScoped(giveBackWhenIdle()))
