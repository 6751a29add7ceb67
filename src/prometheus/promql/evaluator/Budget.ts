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

/**
 * A class, not an object of closures made per query: its methods are inlined into the
 * evaluator's loops, and new closures at every query made V8 throw that code away.
 */
export class Budget {
  private samples = 0
  private work = 0
  private since = performance.now()

  constructor(private readonly maxSamples: number) {}

  /** Counts `n` more samples; throws Prometheus's error past the limit. */
  load(n: number) {
    this.samples += n
    if (this.samples > this.maxSamples) throw tooManySamples()
  }

  /** Counts `n` units of work done; true when it is time to let the event loop turn. */
  due(n: number) {
    this.work += n
    if (this.work < CHECK_EVERY) return false
    this.work = 0
    const now = performance.now()
    if (now - this.since < SLICE_MS) return false
    this.since = now
    return true
  }
}

export const makeBudget = (maxSamples: number): Budget => new Budget(maxSamples)

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
