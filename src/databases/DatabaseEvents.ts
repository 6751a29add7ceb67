/**
 * What the databases tell other capabilities, on every node: a database was deleted, for
 * those that keep something of it outside the engine (the metrics-app's accepted writes
 * and what it remembers of each database's series).
 */
import { Effect, Schema } from "effect"
import { ClusterId, DatabaseName } from "../../domain/Ids.js"
import { makeShared } from "../events/Listeners.js"

export const DatabaseDeleted = Schema.Struct({ cluster: ClusterId, database: DatabaseName })
export type DatabaseDeleted = typeof DatabaseDeleted.Type

export class DatabaseEvents extends Effect.Service<DatabaseEvents>()("sluice/DatabaseEvents", {
  scoped: makeShared("databases", DatabaseDeleted)
}) {}
