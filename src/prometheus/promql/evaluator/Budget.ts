/**
 * What one evaluation may take: samples held (Prometheus's `query.max-samples`, counted
 * as points are made: a selector's per step, a range's read, a subquery's grid and its
 * output) and the event loop. Evaluation is synchronous between effects, so it hands
 * the loop back once it has run for a while: health checks and other requests are served
 * meanwhile, and the query's timeout interrupts it there.
 */
import { Effect } from "effect"
import { performance } from "node:perf_hooks"
import { EvaluationError } from "./Values.js"

/** How long evaluation runs before it lets the event loop turn. */
const SLICE_MS = 20
/** Units of work between two looks at the clock. */
const CHECK_EVERY = 16_384

export const tooManySamples = () =>
  new EvaluationError("query processing would load too many samples into memory in query execution")

export interface Budget {
  /** Counts `n` more samples; throws Prometheus's error past the limit. */
  readonly load: (n: number) => void
  /** Counts `n` units of work done; true when it is time to let the event loop turn. */
  readonly due: (n: number) => boolean
}

export const makeBudget = (maxSamples: number): Budget => {
  let samples = 0
  let work = 0
  let since = performance.now()
  return {
    load: (n) => {
      samples += n
      if (samples > maxSamples) throw tooManySamples()
    },
    due: (n) => {
      work += n
      if (work < CHECK_EVERY) return false
      work = 0
      const now = performance.now()
      if (now - since < SLICE_MS) return false
      since = now
      return true
    }
  }
}

/**
 * A turn of the event loop (`yieldNow` stays in microtasks for up to 2,048 yields, so
 * I/O would still wait); interruptible, so a timeout stops the evaluation here.
 */
export const eventLoopTurn: Effect.Effect<void> = Effect.async<void>((resume) => {
  const handle = setImmediate(() => resume(Effect.void))
  return Effect.sync(() => clearImmediate(handle))
})

/** After `n` units of work: a turn of the event loop when one is due. */
export const pace = (budget: Budget, n: number): Effect.Effect<void> =>
  budget.due(n) ? eventLoopTurn : Effect.void
