/**
 * What the tables tell other capabilities: a table's columns changed (a field took on a
 * new type, or the table was dropped), for the query hints that cache each table's
 * mixed-type columns.
 */
import { Effect } from "effect"
import { makeListeners } from "../events/Listeners.js"

export interface TableChanged {
  /** The engine's name of the table's database. */
  readonly database: string
  readonly table: string
}

export class TableEvents extends Effect.Service<TableEvents>()("sluice/TableEvents", {
  sync: () => makeListeners<TableChanged>()
}) {}
