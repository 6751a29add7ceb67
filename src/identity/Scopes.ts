/** The permission tables `Authorization` decides by. */
import type { DataAction } from "../../domain/Authorization.js"
import type { OrganizationRole, Permission } from "../../domain/Identity.js"

const keyPermissions: Record<DataAction, ReadonlyArray<Permission>> = {
  manage_keys: ["admin"],
  manage_databases: ["admin"],
  delete_table: ["admin"],
  insert: ["admin", "read_write", "write_only"],
  query: ["admin", "read_write", "read_only"],
  read: ["admin", "read_write", "read_only"]
}

/** Organization members read; admins change. */
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
