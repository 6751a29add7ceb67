/** One lock per cluster engine: starting, stopping and destroying it never overlap. */
import { Effect } from "effect"
import type { ClusterId } from "../../domain/Ids.js"

export class EngineLocks extends Effect.Service<EngineLocks>()("sluice/EngineLocks", {
  sync: () => {
    const locks = new Map<ClusterId, Effect.Semaphore>()
    const lockOf = (id: ClusterId) => {
      let lock = locks.get(id)
      if (lock === undefined) {
        lock = Effect.unsafeMakeSemaphore(1)
        locks.set(id, lock)
      }
      return lock
    }
    return {
      withEngine: <A, E, R>(id: ClusterId, work: Effect.Effect<A, E, R>) =>
        lockOf(id).withPermits(1)(work)
    }
  }
}) {}
