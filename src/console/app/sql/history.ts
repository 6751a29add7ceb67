import { store, stored } from "../drafts.js"

export interface HistoryEntry {
  readonly sql: string
  readonly database: string
  readonly at: string
  readonly rows: number | null
  readonly error: string | null
}

const LIMIT = 100

/** The user's last queries, newest first, in this browser. */
export const queryHistory = {
  list: (): ReadonlyArray<HistoryEntry> => stored<Array<HistoryEntry>>("history.sql", []),
  add: (entry: HistoryEntry) => {
    const rest = queryHistory
      .list()
      .filter((e) => e.sql !== entry.sql || e.database !== entry.database)
    store("history.sql", [entry, ...rest].slice(0, LIMIT))
  }
}
