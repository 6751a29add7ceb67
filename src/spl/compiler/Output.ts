/** The SQL of the rows a user sees after a stage (Compile.ts). */
import { ident, orderBy } from "./Rows.js"
import { flatSql } from "./Stage.js"
import type { Stage } from "./Stage.js"

/**
 * What a stage's rows look like to a user: its visible fields, in its order (unless not
 * `ordered`). A flat
 * stage whose columns are named as its fields selects them itself: no alias can then
 * shadow a column its conditions read.
 */
export const output = (stage: Stage, ordered = true) => {
  const visible = stage.rows.columns
  if (stage.flat !== undefined && visible.length > 0 && visible.every((c) => c.sql === c.name))
    return flatSql({
      ...stage.flat,
      select: visible.map((c) => ident(c.sql)).join(", "),
      tail:
        stage.flat.tail ??
        (!ordered || stage.rows.order.length === 0 ? "" : `ORDER BY ${orderBy(stage.rows.order)}`)
    })
  const columns = stage.rows.columns.map((c) => `__s.${ident(c.sql)} AS ${ident(c.name)}`)
  const order =
    !ordered || stage.rows.order.length === 0
      ? ""
      : ` ORDER BY ${orderBy(stage.rows.order, "__s.")}`
  return `SELECT ${columns.join(", ") || "1 AS `_`"} FROM (${stage.sql}) AS __s${order}`
}
