/**
 * Concurrent reads of one key run once: the later callers wait for the first one's
 * outcome. A dashboard's panels are asked for together, and those naming one selector
 * over one range would otherwise all miss the kept reads (ReadCache.ts) and each run
 * the same statement. A reader interrupted (its query timed out, its client left) hands
 * no outcome on: whoever waited reads for itself.
 */
import { Cause, Deferred, Effect, FiberId } from "effect"

export const makeSharedReads = <A, E>() => {
  const pending = new Map<string, Deferred.Deferred<A, E>>()

  const shared = (key: string, read: Effect.Effect<A, E>): Effect.Effect<A, E> =>
    Effect.suspend(() => {
      const running = pending.get(key)
      if (running !== undefined)
        return Deferred.await(running).pipe(
          Effect.catchAllCause((cause) =>
            Cause.isInterruptedOnly(cause) ? shared(key, read) : Effect.failCause(cause)
          )
        )
      const done = Deferred.unsafeMake<A, E>(FiberId.none)
      pending.set(key, done)
      return read.pipe(
        Effect.onExit((exit) => {
          if (pending.get(key) === done) pending.delete(key)
          return Deferred.done(done, exit)
        })
      )
    })

  return shared
}

/**
 * One query's reads, each key run once for the whole query: a later read of the key, or
 * one running beside it, takes the first one's outcome. It holds the query's own reads
 * only, so nothing outlives the query; a plain map and a `Deferred` cost the runtime a
 * few operations, where `Effect.cachedFunction` cost ~90 for every query.
 */
export const makeOnceEach = <A, E>() => {
  const outcomes = new Map<string, Deferred.Deferred<A, E>>()
  return (key: string, read: () => Effect.Effect<A, E>): Effect.Effect<A, E> =>
    Effect.suspend(() => {
      const known = outcomes.get(key)
      if (known !== undefined) return Deferred.await(known)
      const done = Deferred.unsafeMake<A, E>(FiberId.none)
      outcomes.set(key, done)
      return read().pipe(Effect.onExit((exit) => Deferred.done(done, exit)))
    })
}
