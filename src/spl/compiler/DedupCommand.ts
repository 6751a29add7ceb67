/**
 * `dedup [N] fields [keepempty=b] [consecutive=b] [sortby keys]`: the first
 * N events (1 by default) of each combination of values, in the rows' order (newest
 * first, or an earlier sort's). Events missing a field are dropped unless `keepempty`
 * (then each is kept); `consecutive` removes only repeats that follow one another;
 * `sortby` reorders the result as `sort` would (without its limit).
 */
import type { Command } from "./Ast.js"
import { refuse } from "./Refusal.js"
import { asText, fieldValue, orderBy, selectCarried, usableName } from "./Rows.js"
import { countOf, sort } from "./RowCommands.js"
import type { Names, Stage } from "./Stage.js"

type Of<C extends Command["command"]> = Extract<Command, { command: C }>

const flag = (command: Of<"dedup">, name: string) => {
  const option = [...command.options].reverse().find((o) => o.name === name)
  if (option === undefined) return false
  const value = option.value.toLowerCase()
  if (["true", "t", "1"].includes(value)) return true
  if (["false", "f", "0"].includes(value)) return false
  return refuse("dedup", option.at, `${name}=${option.value} is neither true nor false`)
}

export const dedup = (names: Names, input: Stage, command: Of<"dedup">): Stage => {
  const values = command.fields.map((field) => {
    if (!usableName(field))
      refuse("dedup", command.at, `'${field}' is not a field name dedup can use`)
    return asText(fieldValue(input.rows, field))
  })
  if (command.count === 0) refuse("dedup", command.at, "dedup keeps at least one event per value")
  const count = countOf("dedup", command.at, command.count ?? 1)
  const [keepempty, consecutive] = [flag(command, "keepempty"), flag(command, "consecutive")]
  const complete = values.map((v) => `${v} IS NOT NULL`).join(" AND ")
  const columns = selectCarried(input.rows)
  const order = orderBy(input.rows.order)
  let sql: string
  if (consecutive) {
    if (count !== 1) refuse("dedup", command.at, "dedup consecutive=true keeps one event per run")
    // A row stays when it is the first, lacks a field (keepempty), or differs from the one before.
    const key = `tuple(${values.join(", ")})`
    const previous = `lagInFrame(${key}, 1) OVER (ORDER BY ${order} ROWS BETWEEN 1 PRECEDING AND CURRENT ROW)`
    const first = `row_number() OVER (ORDER BY ${order} ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)`
    sql =
      `SELECT ${columns} FROM (SELECT ${columns}, ${complete} AS __complete, ${key} AS __key, ` +
      `${previous} AS __previous, ${first} AS __row FROM (${input.sql})${keepempty ? "" : ` WHERE ${complete}`}) ` +
      `WHERE __row = 1 OR NOT __complete OR __key != __previous`
  } else {
    // With keepempty, a row missing a field is its own group (its row number is unique).
    const by = keepempty ? [...values, `if(${complete}, 0, rowNumberInAllBlocks() + 1)`] : values
    sql =
      `SELECT ${columns} FROM (${input.sql})${keepempty ? "" : ` WHERE ${complete}`} ` +
      `ORDER BY ${order} LIMIT ${count} BY ${by.join(", ")}`
  }
  const deduped: Stage = { rows: input.rows, sql }
  if (command.sortby === null) return deduped
  if (command.sortby.length === 0) refuse("dedup", command.at, "sortby needs at least one field")
  return sort(names, deduped, {
    command: "sort",
    count: 0,
    keys: command.sortby,
    at: command.at,
    text: command.text
  })
}
