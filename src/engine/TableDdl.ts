/**
 * The one place sluice forms DDL text: a table's logical definition and the topology it
 * lives on go in, statements come out.
 *
 * - One server (chDB, a ClickHouse server, or ClickHouse Cloud, whose SharedMergeTree
 *   replicates by itself): the statements sluice has always run.
 * - A named ClickHouse cluster (`SLUICE_CLICKHOUSE_CLUSTER`): every statement runs
 *   `ON CLUSTER`; a MergeTree-family table holds its data as `__local_<t>`, a
 *   `Replicated*MergeTree` on every node, and the user's name `t` is a `Distributed` table
 *   over them, which reads every shard and spreads inserts. `__local_` because tables
 *   starting with `__` are the service's own (never listed) and a user's table name never
 *   starts with `_`, where `t_local` could be a user's own table. Other engines (the
 *   known-paths `Join`) are one table per node. Constraints stay on the table rows arrive
 *   at (the `Distributed` one): the known-paths check reads its node's `Join`, which
 *   the service fills on the node it writes through.
 */
import { quoteIdentifier, quoteString } from "./Sql.js"

/**
 * Where a database's tables live: a ClickHouse server's engine names its cluster when
 * sluice was given one; no name is one server.
 */
export interface Topology {
  readonly clickhouseCluster?: string | undefined
}

/** One server (or ClickHouse Cloud). */
export const SINGLE_SERVER: Topology = {}

export type MergeTreeFamily = "MergeTree" | "ReplacingMergeTree" | "AggregatingMergeTree"

export interface TableDefinition {
  readonly database: string
  readonly table: string
  /** Column definitions, comma-separated, as `CREATE TABLE` takes them. */
  readonly columns: string
  /** Data-skipping indexes (`INDEX …`, comma-separated): a `Distributed` table has none. */
  readonly indexes?: string
  /** `CONSTRAINT …` clauses, comma-separated, on the table rows are inserted into. */
  readonly constraints?: string
  readonly engine: MergeTreeFamily | "Join"
  /** The engine's own parameters: `updated` of `ReplacingMergeTree(updated)`. */
  readonly parameters?: string
  readonly partitionBy?: string
  readonly orderBy?: string
  readonly ttl?: string
  /** `name = value, …`. */
  readonly settings?: string
  readonly comment?: string
  /**
   * Which shard a row goes to on a cluster, `rand()` unless given: a table whose rows
   * fold on merge (Replacing, Aggregating) shards by what they fold on, or two copies of
   * a row on two shards never fold.
   */
  readonly shardBy?: string
}

/** The table of a `Distributed` table's data on each node. */
export const localTable = (table: string) => `__local_${table}`

/**
 * Where the server's default replica path and name put a table (`default_replica_path`,
 * `default_replica_name`); written out only when engine parameters must follow them.
 */
const REPLICA_PATH = "'/clickhouse/tables/{uuid}/{shard}', '{replica}'"

const clusterOf = (topology: Topology) => topology.clickhouseCluster

export const isCluster = (topology: Topology) => clusterOf(topology) !== undefined

/** ` ON CLUSTER <name>` on a cluster, else nothing: for statements formed elsewhere (access). */
export const onCluster = (topology: Topology) => {
  const cluster = clusterOf(topology)
  return cluster === undefined ? "" : ` ON CLUSTER ${quoteIdentifier(cluster)}`
}

const qualified = (database: string, table: string) =>
  `${quoteIdentifier(database)}.${quoteIdentifier(table)}`

const engineText = (definition: TableDefinition, replicated: boolean) => {
  const { engine, parameters } = definition
  if (!replicated || engine === "Join") {
    return parameters === undefined ? engine : `${engine}(${parameters})`
  }
  return parameters === undefined
    ? `Replicated${engine}`
    : `Replicated${engine}(${REPLICA_PATH}, ${parameters})`
}

const clause = (keyword: string, value: string | undefined) =>
  value === undefined ? "" : ` ${keyword} ${value}`

const commentClause = (comment: string | undefined) =>
  comment === undefined ? "" : ` COMMENT ${quoteString(comment)}`

const body = (...parts: ReadonlyArray<string | undefined>) =>
  parts.filter((part) => part !== undefined && part !== "").join(", ")

const createStatement = (
  topology: Topology,
  definition: TableDefinition,
  name: string,
  replicated: boolean,
  constraints: string | undefined
) =>
  `CREATE TABLE IF NOT EXISTS ${qualified(definition.database, name)}${onCluster(topology)} ` +
  `(${body(definition.columns, definition.indexes, constraints)}) ` +
  `ENGINE = ${engineText(definition, replicated)}` +
  clause("PARTITION BY", definition.partitionBy) +
  clause("ORDER BY", definition.orderBy) +
  clause("TTL", definition.ttl) +
  clause("SETTINGS", definition.settings) +
  commentClause(definition.comment)

/** The statements that create the table, in order, each a no-op when it exists. */
export const createTable = (
  topology: Topology,
  definition: TableDefinition
): ReadonlyArray<string> => {
  const cluster = clusterOf(topology)
  if (cluster === undefined || definition.engine === "Join") {
    return [createStatement(topology, definition, definition.table, false, definition.constraints)]
  }
  const { database, table } = definition
  const local = localTable(table)
  return [
    createStatement(topology, definition, local, true, undefined),
    `CREATE TABLE IF NOT EXISTS ${qualified(database, table)}${onCluster(topology)} ` +
      `(${body(definition.columns, definition.constraints)}) ` +
      `ENGINE = Distributed(${quoteString(cluster)}, ${quoteString(database)}, ` +
      `${quoteString(local)}, ${definition.shardBy ?? "rand()"})` +
      commentClause(definition.comment)
  ]
}

/**
 * Drops the table (on a cluster with its data: a table of one per node has none, which
 * `IF EXISTS` passes over); `wait`: until its data is gone (`SYNC`).
 */
export const dropTable = (
  topology: Topology,
  database: string,
  table: string,
  wait = true
): ReadonlyArray<string> =>
  [table, ...(clusterOf(topology) === undefined ? [] : [localTable(table)])].map(
    (name) =>
      `DROP TABLE IF EXISTS ${qualified(database, name)}${onCluster(topology)}${wait ? " SYNC" : ""}`
  )

/** `ALTER TABLE … <changes>` for changes of columns: on a cluster to the data and the `Distributed` table alike. */
export const alterColumns = (
  topology: Topology,
  database: string,
  table: string,
  changes: string
): ReadonlyArray<string> =>
  [...(clusterOf(topology) === undefined ? [] : [localTable(table)]), table].map(
    (name) => `ALTER TABLE ${qualified(database, name)}${onCluster(topology)} ${changes}`
  )

/** `ALTER TABLE … <changes>` of the table on one server: a `Distributed` table takes no others. */
export const alterTable = (database: string, table: string, changes: string) =>
  `ALTER TABLE ${qualified(database, table)} ${changes}`

/** Empties a table of this node (a staging table). */
export const truncateTable = (database: string, table: string) =>
  `TRUNCATE TABLE ${qualified(database, table)}`

/** Moves every part of `source` into `table`: one server only (no `Distributed` table takes parts). */
export const attachPartitionFrom = (database: string, table: string, source: string) =>
  `ALTER TABLE ${qualified(database, table)} ATTACH PARTITION tuple() FROM ${qualified(database, source)}`

/** Deletes rows; on a cluster from the data (a `Distributed` table deletes nothing). */
export const deleteRows = (topology: Topology, database: string, table: string, where: string) =>
  `DELETE FROM ${qualified(database, clusterOf(topology) === undefined ? table : localTable(table))}` +
  `${onCluster(topology)} WHERE ${where}`

export const createView = (
  topology: Topology,
  database: string,
  view: string,
  select: string,
  comment: string
) =>
  `CREATE VIEW IF NOT EXISTS ${qualified(database, view)}${onCluster(topology)} AS ${select}` +
  commentClause(comment)

export const createDatabase = (topology: Topology, database: string) =>
  `CREATE DATABASE IF NOT EXISTS ${quoteIdentifier(database)}${onCluster(topology)}`

export const dropDatabase = (topology: Topology, database: string) =>
  `DROP DATABASE IF EXISTS ${quoteIdentifier(database)}${onCluster(topology)} SYNC`

/**
 * Settings every statement on the topology takes: on a cluster an insert into a
 * `Distributed` table returns once its shards hold the rows, not once the node it went
 * through queued them (an acknowledged write must outlive that node).
 */
export const topologySettings = (topology: Topology) =>
  clusterOf(topology) === undefined ? {} : { distributed_foreground_insert: 1 }
