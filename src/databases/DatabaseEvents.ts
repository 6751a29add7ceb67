/**
 * What the databases tell other capabilities: a database was deleted, for those that keep
 * something of it outside the engine (the metrics-app's accepted writes and what it
 * remembers of each database's series).
 */
import { Effect } from "effect"
import type { ClusterId, DatabaseName } from "../../domain/Ids.js"
import { makeListeners } from "../events/Listeners.js"

export interface DatabaseDeleted {
  readonly cluster: ClusterId
  readonly database: DatabaseName
}

export class DatabaseEvents extends Effect.Service<DatabaseEvents>()("sluice/DatabaseEvents", {
  sync: () => makeListeners<DatabaseDeleted>()
}) {}
