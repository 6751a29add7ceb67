/**
 * Per-table state of this process: a lock for the moment an insert becomes visible
 * (new columns, moving its rows in, recording its token), so concurrent inserts and
 * retries with one token cannot interleave there, and the table's known ALIAS columns,
 * so that moment usually needs a single statement. The engine lives in this process
 * and only this code changes a table's columns, so a process cache holds; it is
 * dropped with the table and whenever a statement on it fails. Also a pool of empty
 * staging tables per database, so most inserts create none, and the names of all
 * staging tables this process owns, so leftovers of a crashed process can be dropped.
 *
 * Staging tables carry the node's tag (its host and data directory), the same across its
 * restarts: on a ClickHouse server shared by several nodes, a node sweeps only what it
 * left itself, never another node's staging tables in use.
 */
import { createHash } from "node:crypto"
import * as os from "node:os"
import * as path from "node:path"
import { Effect } from "effect"
import { dataDir } from "../config/SluiceConfig.js"
import { STAGING_PREFIX } from "./Layout.js"
import type { TableLayout } from "./Layout.js"

// Per database and layout. Above the usual number of concurrent inserts (the benchmark's
// 16 small clients): with 8, half of them created a staging table and dropped it after.
const STAGING_POOL = 32

export interface TableState {
  readonly lock: Effect.Semaphore
  /** Path → types held, or `undefined` until read from the engine. */
  columns: Map<string, ReadonlyArray<string>> | undefined
}

const nodeTag = (dir: string) =>
  createHash("sha256")
    .update(`${os.hostname()}\u0000${path.resolve(dir)}`)
    .digest("hex")
    .slice(0, 8)

export class TableLocks extends Effect.Service<TableLocks>()("sluice/TableLocks", {
  effect: Effect.gen(function* () {
    /** Every staging table this node makes starts with it. */
    const stagingPrefix = `${STAGING_PREFIX}${nodeTag(yield* dataDir)}_`
    const states = new Map<string, TableState>()
    const stateOf = (database: string, table: string): TableState => {
      const key = `${database}\u0000${table}`
      let state = states.get(key)
      if (state === undefined) {
        state = { lock: Effect.unsafeMakeSemaphore(1), columns: undefined }
        states.set(key, state)
      }
      return state
    }
    // Emptied staging tables (their parts moved out), reused by the next insert.
    const idleStaging = new Map<string, Array<string>>()
    // Every staging table this process made and has not dropped, in flight or idle.
    const ours = new Set<string>()
    const swept = new Set<string>()
    return {
      stagingPrefix,
      stateOf,
      // Pooled per layout: rows move only between tables of one structure.
      takeStaging: (database: string, layout: TableLayout): string | undefined =>
        idleStaging.get(`${database}\u0000${layout}`)?.pop(),
      newStaging: (database: string): string => {
        const name = `${stagingPrefix}${crypto.randomUUID().replaceAll("-", "")}`
        ours.add(`${database}\u0000${name}`)
        return name
      },
      droppedStaging: (database: string, name: string) => {
        ours.delete(`${database}\u0000${name}`)
      },
      isOurStaging: (database: string, name: string) => ours.has(`${database}\u0000${name}`),
      /** `true` once per database: time to drop staging tables a previous process left. */
      firstSweep: (database: string): boolean => !swept.has(database) && !!swept.add(database),
      /** `false` when the pool is full and the caller should drop the table. */
      returnStaging: (database: string, layout: TableLayout, staging: string): boolean => {
        const key = `${database}\u0000${layout}`
        const idle = idleStaging.get(key) ?? []
        idleStaging.set(key, idle)
        if (idle.length >= STAGING_POOL) return false
        idle.push(staging)
        return true
      },
      withTable:
        (database: string, table: string) =>
        <A, E, R>(effect: Effect.Effect<A, E, R>) => {
          const state = stateOf(database, table)
          return state.lock.withPermits(1)(
            Effect.ensuring(
              effect,
              Effect.sync(() => {
                state.columns = undefined
              })
            )
          )
        }
    }
  })
}) {}
