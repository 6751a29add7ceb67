/**
 * Commands that filter, compute or reorder rows without grouping them: `search`, `where`,
 * `eval`, `sort`, `head`; `dedup` is DedupCommand.ts.
 */
import type { Command, Expr } from "./Ast.js"
import { condition, expression } from "./ExprSql.js"
import { refuse } from "./Refusal.js"
import {
  asNumber,
  asText,
  carried,
  fieldValue,
  ident,
  orderBy,
  selectCarried,
  usableName
} from "./Rows.js"
import type { Column, OrderKey, Rows } from "./Rows.js"
import { searchCondition } from "./SearchSql.js"
import { flatStage } from "./Stage.js"
import type { Names, Stage } from "./Stage.js"

type Of<C extends Command["command"]> = Extract<Command, { command: C }>

export const SORT_DEFAULT_LIMIT = 10_000
export const HEAD_DEFAULT = 10

/** A count written in a command, as SQL: only whole numbers the engine reads exactly. */
export const countOf = (command: string, at: number, count: number) =>
  Number.isSafeInteger(count) ? count : refuse(command, at, `${command} takes a smaller count`)

const filtered = (input: Stage, where: string): Stage =>
  input.flat === undefined || input.flat.tail !== undefined
    ? {
        rows: input.rows,
        sql: `SELECT ${selectCarried(input.rows)} FROM (${input.sql}) WHERE ${where}`
      }
    : flatStage(input.rows, { ...input.flat, where: [...input.flat.where, where] })

export const search = (input: Stage, command: Of<"search">): Stage =>
  filtered(input, searchCondition(input.rows, command.expression, command.at, true))

export const where = (names: Names, input: Stage, command: Of<"where">): Stage => {
  const context = { rows: input.rows, command: "where", at: command.at, now: names.now }
  // A WHERE drops a row whose condition is null: the condition needs no ifNull.
  return filtered(input, condition(context, expression(context, command.expression)))
}

const assign = (names: Names, input: Stage, field: string, expr: Expr, at: number): Stage => {
  if (!usableName(field)) refuse("eval", at, `'${field}' is not a field name eval can assign`)
  const value = expression({ rows: input.rows, command: "eval", at, now: names.now }, expr)
  // Text an expression made is stored as a value: numeric when it reads as a number.
  const kind =
    value.kind === "bool"
      ? refuse("eval", at, "Fields cannot be assigned a boolean result. Instead, try if(...)")
      : value.kind === "string"
        ? "value"
        : value.kind
  const column: Column = { name: field, sql: names.fresh(), kind }
  const replaced = input.rows.columns.some((c) => c.name === field)
  const rows: Rows = {
    ...input.rows,
    columns: replaced
      ? input.rows.columns.map((c) => (c.name === field ? column : c))
      : [...input.rows.columns, column],
    removed: new Set([...input.rows.removed].filter((name) => name !== field))
  }
  const kept = carried(input.rows).filter((sql) => carried(rows).includes(sql))
  const named = `${value.sql} AS ${ident(column.sql)}`
  // In a flat stage the value is named in WITH, where the conditions after it read it.
  if (input.flat !== undefined && input.flat.tail === undefined)
    return flatStage(rows, {
      ...input.flat,
      with: [input.flat.with, named].filter((w) => w !== "").join(", "),
      select: [...kept, column.sql].map(ident).join(", ")
    })
  return { rows, sql: `SELECT ${[...kept.map(ident), named].join(", ")} FROM (${input.sql})` }
}

export const evaluate = (names: Names, input: Stage, command: Of<"eval">): Stage =>
  command.assignments.reduce(
    (stage, { field, expression: expr }) => assign(names, stage, field, expr, command.at),
    input
  )

/**
 * Each key sorts numbers numerically, then IPv4 addresses as addresses, then other text
 * by code point (the reverse when descending), and missing values last either way; the
 * order before the sort breaks ties (a stable sort).
 */
export const sort = (names: Names, input: Stage, command: Of<"sort">): Stage => {
  if (command.keys.length === 0) refuse("sort", command.at, "sort needs at least one field")
  const keys: Array<{ sql: string; expression: string; descending: boolean }> = []
  for (const key of command.keys) {
    if (!usableName(key.field))
      refuse("sort", command.at, `'${key.field}' is not a field name sort can use`)
    const value = fieldValue(input.rows, key.field)
    const add = (expression: string, descending: boolean) =>
      keys.push({ sql: names.fresh(), expression, descending })
    if (value.kind === "time") {
      add(value.sql, key.descending)
      continue
    }
    add(`isNull(${asText(value)})`, false)
    if (value.kind === "number") {
      add(value.sql, key.descending)
      continue
    }
    const [number, ip] = [asNumber(value), `toIPv4OrNull(${asText(value)})`]
    add(`multiIf(${number} IS NOT NULL, 0, ${ip} IS NOT NULL, 1, 2)`, key.descending)
    add(number, key.descending)
    add(ip, key.descending)
    add(asText(value), key.descending)
  }
  const order: Array<OrderKey> = [
    ...keys.map(({ sql, descending }) => ({ sql, descending })),
    ...input.rows.order
  ]
  const rows: Rows = { ...input.rows, order }
  const limit = countOf("sort", command.at, command.count ?? SORT_DEFAULT_LIMIT)
  const select = [
    ...carried(input.rows).map(ident),
    ...keys.map((k) => `${k.expression} AS ${ident(k.sql)}`)
  ].join(", ")
  return {
    rows,
    sql:
      `SELECT ${select} FROM (${input.sql}) ORDER BY ${orderBy(order)}` +
      (limit === 0 ? "" : ` LIMIT ${limit}`)
  }
}

export const head = (input: Stage, command: Of<"head">): Stage => {
  const tail = `ORDER BY ${orderBy(input.rows.order)} LIMIT ${countOf("head", command.at, command.count ?? HEAD_DEFAULT)}`
  return input.flat === undefined || input.flat.tail !== undefined
    ? { rows: input.rows, sql: `SELECT ${selectCarried(input.rows)} FROM (${input.sql}) ${tail}` }
    : flatStage(input.rows, { ...input.flat, tail })
}
