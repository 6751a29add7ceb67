/**
 * The one mapping from a cluster's logical database name to the engine's database name.
 * Every statement that names a database goes through here, so that clusters sharing one
 * ClickHouse server can later be namespaced by changing this function alone.
 */
import type { ClusterId } from "../../domain/Ids.js"
import { quoteIdentifier } from "../engine/Sql.js"

export interface ClusterRefForEngine {
  readonly clusterId: ClusterId
}

/** Embedded: one engine per cluster, so the logical name is the engine name. */
export const engineDatabase = (_scope: ClusterRefForEngine, name: string): string => name

/** `engineDatabase`, quoted for splicing into SQL. */
export const quotedEngineDatabase = (scope: ClusterRefForEngine, name: string): string =>
  quoteIdentifier(engineDatabase(scope, name))
