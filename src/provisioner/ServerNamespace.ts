/**
 * How a cluster lives on a shared ClickHouse server: a namespace of its own. Its
 * databases are `sluice_<id>__<name>`; its ClickHouse user `sluice_<id>` has a settings
 * profile made from the cluster's size and grants on its own databases only, so the
 * server itself keeps clusters apart (and `system.*` shows a cluster only its own).
 *
 * Shards and replicas: a namespace sits on the one server endpoint sluice is given. With
 * `SLUICE_CLICKHOUSE_CLUSTER` every statement here runs `ON CLUSTER` and tables are
 * replicated and distributed over the server's cluster (src/engine/TableDdl.ts); the
 * cluster object still reports the requested replicas from the catalog.
 */
import type { ClusterId } from "../../domain/Ids.js"
import type { EngineSpec } from "../../domain/Provisioner.js"
import type { Topology } from "../engine/TableDdl.js"
import { createDatabase, dropDatabase, onCluster, SINGLE_SERVER } from "../engine/TableDdl.js"

export const namespaceOf = (cluster: ClusterId) => `sluice_${cluster.replaceAll("-", "")}`

export const databasePrefix = (cluster: ClusterId) => `${namespaceOf(cluster)}__`

const literal = (value: string) => `'${value.replaceAll("\\", "\\\\").replaceAll("'", "\\'")}'`

/** What a cluster's user may do inside its namespace: data and schema, nothing else. */
export const NAMESPACE_PRIVILEGES = [
  "SELECT",
  "INSERT",
  "ALTER",
  "CREATE DATABASE",
  "CREATE TABLE",
  "DROP DATABASE",
  "DROP TABLE",
  "TRUNCATE",
  "OPTIMIZE",
  "SHOW"
]

/** What the server's user needs to give each cluster a user and settings profile of its own. */
export const ACCESS_PRIVILEGES = [
  "CREATE USER",
  "ALTER USER",
  "DROP USER",
  "CREATE SETTINGS PROFILE",
  "ALTER SETTINGS PROFILE",
  "DROP SETTINGS PROFILE"
]

/** Creates (or re-sizes, and re-keys with `password`) the namespace. Idempotent. */
export const provisionStatements = (
  spec: EngineSpec,
  password: string,
  topology: Topology = SINGLE_SERVER
) => {
  const ns = namespaceOf(spec.clusterId)
  const on = onCluster(topology)
  const prefix = databasePrefix(spec.clusterId)
  const threads = Math.max(1, Math.floor(spec.cpuCores))
  const memory = Math.floor(spec.memoryBytes)
  const settings = `max_threads = ${threads}, max_insert_threads = ${threads}, max_memory_usage = ${memory}`
  return [
    `CREATE SETTINGS PROFILE IF NOT EXISTS ${ns}${on} SETTINGS ${settings}`,
    `ALTER SETTINGS PROFILE ${ns}${on} SETTINGS ${settings}`,
    `CREATE USER IF NOT EXISTS ${ns}${on} IDENTIFIED WITH sha256_password BY ${literal(password)} ` +
      `DEFAULT DATABASE \`${prefix}default\` SETTINGS PROFILE ${ns}`,
    `ALTER USER ${ns}${on} IDENTIFIED WITH sha256_password BY ${literal(password)}`,
    `GRANT${on} ${NAMESPACE_PRIVILEGES.join(", ")} ON \`${prefix}*\`.* TO ${ns}`,
    createDatabase(topology, `${prefix}default`)
  ]
}

/** The namespace's user and profile go; its databases are dropped by name. */
export const removeStatements = (
  cluster: ClusterId,
  databases: ReadonlyArray<string>,
  topology: Topology = SINGLE_SERVER
) => [
  ...databases.map((name) => dropDatabase(topology, name)),
  `DROP USER IF EXISTS ${namespaceOf(cluster)}${onCluster(topology)}`,
  `DROP SETTINGS PROFILE IF EXISTS ${namespaceOf(cluster)}${onCluster(topology)}`
]
