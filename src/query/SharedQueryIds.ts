/**
 * On a ClickHouse server shared by several nodes, a query runs under an engine id that
 * every node derives alike from who started it and the caller's name for it: its
 * organization, cluster, database and `query_id`. A node that did not start a query can
 * then cancel it on the server (`KILL QUERY`) without knowing it, and only for a caller of
 * the same organization, cluster and database, the rule a node applies to its own queries
 * (`RunningQueries`). The server runs one query per id at a time, so a name taken on
 * another node is a conflict there as it is here.
 */
import { createHash } from "node:crypto"
import type { QueryScope } from "./RunningQueries.js"

/** The engine id of the query `queryId` of `scope`, the same on every node. */
export const sharedQueryId = (scope: QueryScope, queryId: string): string => {
  const hex = createHash("sha256")
    .update(JSON.stringify([scope.organizationId, scope.clusterId, scope.database, queryId]))
    .digest("hex")
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`
}

/** What the server answers when the id is taken (`queryIdTaken`). */
export const SAME_ID_RUNNING = "QUERY_WITH_SAME_ID_IS_ALREADY_RUNNING"
