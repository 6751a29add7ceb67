/** A stage under construction: its rows and the SQL that yields them. */
import type { Rows } from "./Rows.js"

export interface Stage {
  readonly rows: Rows
  readonly sql: string
}

/** Fresh SQL column names (`__c0`, `__c1` …), unique within one compilation. */
export interface Names {
  readonly fresh: () => string
  /** When the search started, in epoch ms: `now()` and `relative_time` read it. */
  readonly now: number
}

export const namesFrom = (now = 0): Names => {
  let next = 0
  return { fresh: () => `__c${next++}`, now }
}
