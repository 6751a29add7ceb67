/**
 * What the tables tell other capabilities, on every node: a table's columns changed (a
 * field took on a new type, or the table was dropped), for the query hints that cache
 * each table's mixed-type columns.
 */
import { Effect, Schema } from "effect"
import { makeShared } from "../events/Listeners.js"

export const TableChanged = Schema.Struct({
  /** The engine's name of the table's database. */
  database: Schema.String,
  table: Schema.String
})
export type TableChanged = typeof TableChanged.Type

export class TableEvents extends Effect.Service<TableEvents>()("sluice/TableEvents", {
  scoped: makeShared("tables", TableChanged)
}) {}
