/**
 * Commands that choose or name the columns: `fields`, `table`, `rename` (
 * "Commands"). After `fields`/`table` only the named fields remain, so the stored JSON
 * is no longer carried.
 */
import type { Command } from "./Ast.js"
import { expanded, fieldNames, isPattern, matching, renamedBy, wildcards } from "./FieldPatterns.js"
import { refuse } from "./Refusal.js"
import { fieldValue, ident, selectCarried, usableName } from "./Rows.js"
import type { Column, Rows } from "./Rows.js"
import type { Names, Stage } from "./Stage.js"

type Of<C extends Command["command"]> = Extract<Command, { command: C }>

const checked = (command: string, at: number, fields: ReadonlyArray<string>) => {
  for (const field of fields)
    if (!usableName(field)) refuse(command, at, `'${field}' is not a field name ${command} can use`)
  return [...new Set(fields)]
}

/** The named fields as columns: visible ones as they are, others read once here. */
const keep = (names: Names, input: Stage, fields: ReadonlyArray<string>): Stage => {
  const computed = new Map<string, string>()
  const columns = fields.map((name): Column => {
    const visible = input.rows.columns.find((c) => c.name === name)
    if (visible !== undefined) return visible
    const sql = names.fresh()
    computed.set(sql, fieldValue(input.rows, name).sql)
    return { name, sql, kind: "value" }
  })
  const rows: Rows = { columns, raw: false, removed: new Set(), order: input.rows.order }
  const passed = selectCarried({ ...rows, columns: columns.filter((c) => !computed.has(c.sql)) })
  const select = [passed, ...[...computed].map(([sql, value]) => `${value} AS ${ident(sql)}`)]
  return {
    rows,
    sql: `SELECT ${select.filter((s) => s !== "").join(", ")} FROM (${input.sql})`
  }
}

/** `fields a, b`: those fields, and `_time`/`_raw` while the rows have them. */
export const fields = (names: Names, input: Stage, command: Of<"fields">): Stage => {
  if (command.remove)
    refuse(
      "fields",
      command.signAt,
      "fields - (removing fields) is outside the subset; list the fields to keep"
    )
  // `fields *` keeps everything, the events' stored fields included.
  if (command.fields.includes("*")) return input
  const named = expanded(input.rows, checked("fields", command.at, command.fields))
  const internal = ["_time", "_raw"].filter(
    (name) => input.rows.columns.some((c) => c.name === name) && !named.includes(name)
  )
  return keep(names, input, [...internal, ...named])
}

/** `table a, b*`: exactly those columns, in that order. */
export const table = (names: Names, input: Stage, command: Of<"table">): Stage =>
  keep(names, input, expanded(input.rows, checked("table", command.at, command.fields)))

interface Renaming {
  readonly from: string
  readonly to: string
}

/** `rename a* AS b*`: each field the pattern matches, the stored ones included. */
const renamePattern = (names: Names, input: Stage, from: string, to: string, at: number): Stage => {
  if (wildcards(from) !== wildcards(to))
    refuse("rename", at, `rename ${from} AS ${to} needs as many * on both sides`)
  const renamings = matching(from, fieldNames(input.rows)).map((name): Renaming => ({
    from: name,
    to: renamedBy(from, to, name)!
  }))
  return renameAll(names, input, renamings, at)
}

/** `rename a AS b, …`, left to right; a renamed field is gone under its old name. */
export const rename = (names: Names, input: Stage, command: Of<"rename">): Stage =>
  command.renamings.reduce(
    (stage, { from, to }) =>
      isPattern(from) || isPattern(to)
        ? renamePattern(names, stage, from, to, command.at)
        : renameAll(names, stage, [{ from, to }], command.at),
    input
  )

/**
 * Renamings one after another: a visible field changes its name only; fields read from
 * the stored JSON are read in one SELECT over `stage`, however many a pattern matched.
 */
const renameAll = (
  names: Names,
  stage: Stage,
  renamings: ReadonlyArray<Renaming>,
  at: number
): Stage => {
  let rows = stage.rows
  const read: Array<string> = []
  for (const { from, to } of renamings) {
    checked("rename", at, [from, to])
    if (from === to) continue
    const visible = rows.columns.find((c) => c.name === from)
    const others = rows.columns.filter((c) => c.name !== to)
    const removed = new Set([...rows.removed, from])
    removed.delete(to)
    if (visible !== undefined) {
      const columns = others.map((c) => (c.name === from ? { ...c, name: to } : c))
      rows = { ...rows, removed, columns }
      continue
    }
    const sql = names.fresh()
    read.push(`${fieldValue(rows, from).sql} AS ${ident(sql)}`)
    rows = { ...rows, removed, columns: [...others, { name: to, sql, kind: "value" }] }
  }
  if (rows === stage.rows) return stage
  if (read.length === 0) return { rows, sql: stage.sql }
  return {
    rows,
    sql: `SELECT ${selectCarried(stage.rows)}, ${read.join(", ")} FROM (${stage.sql})`
  }
}
