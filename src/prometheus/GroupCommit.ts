/**
 * Accepted writes of one database into the engine in batches. A batch starts when the
 * writes waiting weigh `batchWeight`, when the first of them has waited `linger`, or at
 * once when someone waits for them (`settled`, a writer held back by `room`, a retry
 * after a failure); never while another batch of the database is being stored, so a busy
 * database stores many writes per engine insert. Readers wait with `settled`, so holding
 * writes back never hides one from a read; it only spares the engine: an insert of
 * several bodies costs chDB less a body than one body alone, and every insert is a part
 * the engine merges later.
 *
 * A failed batch is kept, ahead of newer writes, for the next attempt: the next `add`
 * or `settled`. Whoever waits on it gets the failure.
 */
import { Deferred, Effect, Exit, FiberId } from "effect"
import type { Duration, Scope } from "effect"

export interface GroupCommit<W, E> {
  /** Waits while the writes not yet stored reach the bound; fails if storing them fails. */
  readonly room: Effect.Effect<void, E>
  /** Queues an accepted write; starts a batch if none is running and the waiting writes are due. */
  readonly add: (write: W) => Effect.Effect<void>
  /** Waits until every write added before it is stored. */
  readonly settled: Effect.Effect<void, E>
  /**
   * Drops the writes not yet being stored (where they were to go is gone): whoever waits
   * for them gets `error`. A batch being stored ends as it ends.
   */
  readonly abandon: (error: E) => Effect.Effect<void>
}

export const makeGroupCommit = <W, E>(options: {
  /** Stores one batch: all or nothing as far as the caller can tell (a retry repeats it). */
  readonly store: (batch: ReadonlyArray<W>) => Effect.Effect<void, E>
  readonly weight: (write: W) => number
  /** Total weight of waiting writes at which `room` waits. */
  readonly bound: number
  /** Total weight of waiting writes at which a batch starts without waiting longer. */
  readonly batchWeight: number
  /** How long the first waiting write waits at most before its batch starts. */
  readonly linger: Duration.DurationInput
  /** Where batches run: they outlive the request that started them. */
  readonly scope: Scope.Scope
}): GroupCommit<W, E> => {
  let waiting: Array<W> = []
  let waitingWeight = 0
  // Completes when the waiting writes are stored; made with the first of them.
  let waitingDone: Deferred.Deferred<void, E> | undefined
  // The batch being stored, if any.
  let running: Deferred.Deferred<void, E> | undefined
  // The waiting writes are to be stored as soon as no batch is running, whatever they weigh.
  let urgent = false

  const due = () => waiting.length > 0 && (urgent || waitingWeight >= options.batchWeight)

  const run = (batch: ReadonlyArray<W>, done: Deferred.Deferred<void, E>): Effect.Effect<void> =>
    Effect.exit(options.store(batch)).pipe(
      Effect.flatMap((exit) => {
        if (Exit.isSuccess(exit)) return Effect.zipRight(Deferred.done(done, exit), next)
        // Kept for the next attempt, and everyone waiting hears why it did not happen now.
        const newer = waitingDone
        waiting = [...batch, ...waiting]
        waitingWeight = waiting.reduce((sum, write) => sum + options.weight(write), 0)
        waitingDone = Deferred.unsafeMake<void, E>(FiberId.none)
        running = undefined
        // Tried again on the next add or settled, not left to linger.
        urgent = true
        return Effect.zipRight(
          Deferred.done(done, exit),
          newer === undefined ? Effect.void : Deferred.done(newer, exit)
        )
      })
    )

  // Takes every waiting write as the batch to store; the state changes before anything yields.
  const take = (): Effect.Effect<void> => {
    const batch = waiting
    const done = waitingDone ?? Deferred.unsafeMake<void, E>(FiberId.none)
    waiting = []
    waitingWeight = 0
    waitingDone = undefined
    urgent = false
    running = done
    return run(batch, done)
  }

  const next: Effect.Effect<void> = Effect.suspend(() => {
    if (due()) return take()
    running = undefined
    return Effect.void
  })

  const start: Effect.Effect<void> = Effect.suspend(() =>
    running !== undefined || !due()
      ? Effect.void
      : Effect.asVoid(Effect.forkIn(take(), options.scope))
  )

  // Started with the first write of a batch: once `linger` has passed, that batch is due,
  // unless it was taken meanwhile.
  const lingerFor = (batch: Deferred.Deferred<void, E>) =>
    Effect.forkIn(
      Effect.sleep(options.linger).pipe(
        Effect.zipRight(
          Effect.suspend(() => {
            if (waitingDone !== batch) return Effect.void
            urgent = true
            return start
          })
        )
      ),
      options.scope
    )

  const settled: Effect.Effect<void, E> = Effect.suspend(() => {
    if (waitingDone !== undefined) {
      const done = waitingDone
      urgent = true
      return Effect.zipRight(start, Deferred.await(done))
    }
    return running === undefined ? Effect.void : Deferred.await(running)
  })

  const room: Effect.Effect<void, E> = Effect.suspend(() =>
    waitingWeight < options.bound ? Effect.void : Effect.zipRight(settled, room)
  )

  const add = (write: W) =>
    Effect.suspend(() => {
      waiting.push(write)
      waitingWeight += options.weight(write)
      if (waitingDone !== undefined) return start
      const batch = Deferred.unsafeMake<void, E>(FiberId.none)
      waitingDone = batch
      return Effect.zipRight(start, Effect.asVoid(lingerFor(batch)))
    })

  const abandon = (error: E) =>
    Effect.suspend(() => {
      const done = waitingDone
      waiting = []
      waitingWeight = 0
      waitingDone = undefined
      urgent = false
      return done === undefined ? Effect.void : Effect.asVoid(Deferred.fail(done, error))
    })

  return { room, add, settled, abandon }
}
