/** What the `Policy` resolves a request to, and the permission tables it uses. */
import type { Caller, OrganizationRole, Permission, UserCaller } from "../../domain/Identity.js"
import type { ClusterId, DatabaseName, OrganizationId } from "../../domain/Ids.js"

/** Data-plane actions (decisions.md §2). */
export type DataAction =
  "manage_keys" | "manage_databases" | "delete_table" | "insert" | "query" | "read"

const keyPermissions: Record<DataAction, ReadonlyArray<Permission>> = {
  manage_keys: ["admin"],
  manage_databases: ["admin"],
  delete_table: ["admin"],
  insert: ["admin", "read_write", "write_only"],
  query: ["admin", "read_write", "read_only"],
  read: ["admin", "read_write", "read_only"]
}

/** Organization members read; admins change (spec, Authentication §4). */
const memberActions: ReadonlyArray<DataAction> = ["query", "read"]

export const keyMayDo = (permission: Permission, action: DataAction) =>
  keyPermissions[action].includes(permission)

export const memberMayDo = (role: OrganizationRole, action: DataAction) =>
  role === "admin" || memberActions.includes(action)

export const actionDescription: Record<DataAction, string> = {
  manage_keys: "manage API keys",
  manage_databases: "create or delete databases",
  delete_table: "delete tables",
  insert: "insert data",
  query: "run queries",
  read: "read databases, tables and logs"
}

export interface ClusterScope {
  readonly organizationId: OrganizationId
  readonly organizationName: string
  readonly clusterId: ClusterId
  readonly clusterName: string
  /** The key's stored default database; users have none (`default` applies). */
  readonly defaultDatabase: DatabaseName | undefined
  readonly caller: Caller
}

export interface OrganizationScope {
  readonly organizationId: OrganizationId
  readonly organizationName: string
  readonly role: OrganizationRole
  readonly user: UserCaller
}
