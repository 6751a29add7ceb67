/** A stage under construction: its rows and the SQL that yields them. */
import type { Rows } from "./Rows.js"

export interface Stage {
  readonly rows: Rows
  readonly sql: string
}

/** Fresh SQL column names (`__c0`, `__c1` …), unique within one compilation. */
export interface Names {
  readonly fresh: () => string
}

export const namesFrom = (): Names => {
  let next = 0
  return { fresh: () => `__c${next++}` }
}
