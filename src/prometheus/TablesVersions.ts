/**
 * Which contents of a database's series tables a read sees, as a version: two reads
 * under the same version saw the same samples, so what the first read may be kept for
 * the second (promql/read/ReadCache.ts).
 *
 * Writes this process stores change the version at once (`changed`). Anything else that
 * changes the tables (another sluice process on the same ClickHouse server, an
 * operator's SQL, a merge) shows in the engine's list of the tables' parts, which is
 * read again at most once per `CHECK_EVERY`: such a change is seen within that time.
 * A process's own writes already reach another process only after its batch is stored,
 * so this adds at most a second to what a second process sees of them. Reading the list
 * on every query instead would cost a good part of an average PromQL read, which is
 * what the versions are for saving.
 *
 * Versions come from one counter, so a database deleted and made again under its name
 * never meets a version of the one before.
 */
import { Clock, Duration, Effect } from "effect"

export const CHECK_EVERY = Duration.seconds(1)

interface Entry {
  version: string
  /** The parts list last read (`undefined`: the reading failed) and when (never yet: `undefined`). */
  parts: string | undefined
  checkedAt: number | undefined
}

export const makeTablesVersions = () => {
  const entries = new Map<string, Entry>()
  let counter = 0
  const next = () => `${++counter}`

  const entryOf = (key: string) => {
    let entry = entries.get(key)
    if (entry === undefined) {
      entry = { version: next(), parts: undefined, checkedAt: undefined }
      entries.set(key, entry)
    }
    return entry
  }

  return {
    /** This process changed the tables of `key` (a batch stored, or tried). */
    changed: (key: string) => {
      entryOf(key).version = next()
    },

    /** The database is gone; a later one under the name starts a new version. */
    forget: (matches: (key: string) => boolean) => {
      for (const key of [...entries.keys()]) if (matches(key)) entries.delete(key)
    },

    /**
     * The current version of `key`'s tables, reading their `parts` list when the last
     * reading is older than `CHECK_EVERY`. A failed reading counts as a change: nothing
     * read before it is reused, and the next reading waits as after any other (where
     * the list cannot be read, what is kept lasts a second at most).
     */
    current: <E, R>(key: string, parts: Effect.Effect<string, E, R>) =>
      Effect.gen(function* () {
        const entry = entryOf(key)
        const now = yield* Clock.currentTimeMillis
        if (entry.checkedAt !== undefined && now - entry.checkedAt < Duration.toMillis(CHECK_EVERY))
          return entry.version
        const read = yield* Effect.either(parts)
        const reading = read._tag === "Right" ? read.right : undefined
        if (entry.checkedAt !== undefined && (reading === undefined || reading !== entry.parts))
          entry.version = next()
        entry.parts = reading
        entry.checkedAt = now
        return entry.version
      })
  }
}

export type TablesVersions = ReturnType<typeof makeTablesVersions>
