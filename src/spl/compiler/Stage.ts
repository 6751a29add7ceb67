/** A stage under construction: its rows and the SQL that yields them. */
import type { Rows } from "./Rows.js"

export interface Stage {
  readonly rows: Rows
  readonly sql: string
  /**
   * The same SQL as one SELECT without grouping, when it is one: a filter or `head`
   * extends it, and the result selects from it, instead of wrapping it in a subquery
   * (each level costs planning time that a fast search notices).
   */
  readonly flat?: FlatSelect
}

/**
 * `WITH with SELECT select FROM from WHERE where… tail`: `with` names the expressions
 * the conditions read (so `select` can be replaced); `tail` orders and limits (then
 * nothing more can be added).
 */
export interface FlatSelect {
  readonly with: string
  readonly select: string
  readonly from: string
  readonly where: ReadonlyArray<string>
  readonly tail?: string
}

export const flatSql = (flat: FlatSelect) =>
  (flat.with === "" ? "" : `WITH ${flat.with} `) +
  `SELECT ${flat.select} FROM ${flat.from}` +
  (flat.where.length === 0 ? "" : ` WHERE ${flat.where.join(" AND ")}`) +
  (flat.tail === undefined ? "" : ` ${flat.tail}`)

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
