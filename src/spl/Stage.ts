/** A stage under construction: its rows and the SQL that yields them. */
import type { Rows } from "./Rows.js"

export interface Stage {
  readonly rows: Rows
  readonly sql: string
  /**
   * The same SQL as one SELECT without ordering, grouping or limit, when it is one: a
   * filter or `head` extends it instead of wrapping it in a subquery (each level costs
   * the engine planning time that a fast search notices).
   */
  readonly flat?: FlatSelect
}

export interface FlatSelect {
  readonly select: string
  readonly from: string
  readonly where: ReadonlyArray<string>
}

export const flatSql = (flat: FlatSelect) =>
  `SELECT ${flat.select} FROM ${flat.from}` +
  (flat.where.length === 0 ? "" : ` WHERE ${flat.where.join(" AND ")}`)

/** A stage that is one flat SELECT. */
export const flatStage = (rows: Rows, flat: FlatSelect): Stage => ({
  rows,
  sql: flatSql(flat),
  flat
})

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
