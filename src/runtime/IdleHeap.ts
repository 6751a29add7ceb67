/**
 * Gives V8's young generation back once a process is idle. Start-up (or a burst of
 * requests) grows its semi-spaces to their 16 MB maximum, and V8 only shrinks them in a
 * garbage collection, which an idle process never has: the service held 32 MB of young
 * generation doing nothing. One full collection once the event loop has been mostly idle
 * for `idleFor` returns it (~35 ms of CPU; the service went from 234 to 205 MB RSS), at
 * most one every `minimumGap`, so light traffic that keeps growing it back costs next to
 * nothing. V8 shrinks the young generation only when the last ~5 s allocated little, so a
 * collection that left it as it was is tried again at the next checks. Its maximum stays,
 * so it grows back at the first burst of work (a smaller maximum cost 25–30 % more CPU on
 * JSON work). */
import { Duration, Effect, Layer, Schedule } from "effect"
import { performance } from "node:perf_hooks"
import * as v8 from "node:v8"
import * as vm from "node:vm"

export interface IdleHeapOptions {
  /** How often the event loop's utilization is read. */
  readonly every: Duration.DurationInput
  /** How long the process must have been idle. */
  readonly idleFor: Duration.DurationInput
  /**
   * Below this share of the interval busy, the process is idle: an idle service's own
   * background work kept its loop up to ~15 % busy over some 2 s intervals on a loaded
   * machine.
   */
  readonly idleUtilization: number
  /** The least time from one collection to the next. */
  readonly minimumGap: Duration.DurationInput
  /** A young generation this large or smaller is left alone. */
  readonly keptYoungBytes: number
}

const defaults: IdleHeapOptions = {
  every: "2 seconds",
  idleFor: "4 seconds",
  idleUtilization: 0.2,
  minimumGap: "30 seconds",
  keptYoungBytes: 8 * 1024 * 1024
}

const MAXIMUM_TRIES = 3

const youngBytes = () =>
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

/** Runs until interrupted: a full collection after an idle interval, at most one a gap. */
export const giveBackWhenIdle = (options: Partial<IdleHeapOptions> = {}) =>
  Effect.suspend(() => {
    const settings = { ...defaults, ...options }
    const gapMillis = Duration.toMillis(settings.minimumGap)
    const idleMillis = Duration.toMillis(settings.idleFor)
    const gc = collector()
    let last = performance.eventLoopUtilization()
    let idleSince = performance.now()
    let collectedAt = -Infinity
    let tries = 0
    const check = Effect.sync(() => {
      const now = performance.eventLoopUtilization()
      const busy = performance.eventLoopUtilization(now, last).utilization
      last = now
      const at = performance.now()
      if (busy >= settings.idleUtilization) idleSince = at
      if (at - idleSince < idleMillis || at - collectedAt < gapMillis) return
      if (youngBytes() <= settings.keptYoungBytes) return
      gc()
      // The process's own background work may have allocated within V8's window: the
      // next checks try again, a few times, then wait a gap as after a collection that
      // did shrink it.
      tries += 1
      if (youngBytes() <= settings.keptYoungBytes || tries >= MAXIMUM_TRIES) {
        collectedAt = performance.now()
        tries = 0
      }
    })
    return Effect.repeat(check, Schedule.spaced(settings.every))
  })

/** `giveBackWhenIdle` for as long as the layer's scope is open. */
export const layer = Layer.scopedDiscard(Effect.forkScoped(giveBackWhenIdle()))
