/**
 * One lock per table for the moment an insert becomes visible (new columns, moving its
 * rows in, recording its token), so concurrent inserts and retries with one token
 * cannot interleave there. The engine lives in this process, so a process lock holds.
 */
import { Effect } from "effect"

export class TableLocks extends Effect.Service<TableLocks>()("sluice/TableLocks", {
  sync: () => {
    const locks = new Map<string, Effect.Semaphore>()
    const lockOf = (key: string) => {
      let lock = locks.get(key)
      if (lock === undefined) {
        lock = Effect.unsafeMakeSemaphore(1)
        locks.set(key, lock)
      }
      return lock
    }
    return {
      withTable:
        (database: string, table: string) =>
        <A, E, R>(effect: Effect.Effect<A, E, R>) =>
          lockOf(`${database}\u0000${table}`).withPermits(1)(effect)
    }
  }
}) {}
